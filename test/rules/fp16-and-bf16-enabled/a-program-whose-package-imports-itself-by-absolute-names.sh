#: name: fp16-and-bf16-enabled: a package that imports its own modules by absolute names two levels down (`from pkg.tuner.core.parser import …` in src/pkg/tuner/core/__init__.py, as ChatGLM-Efficient-Tuning does) is found where Python finds it, in the folder of the program that runs (sys.path[0]), so the launch is read as a Trainer launch
#: path: examples/train.sh
#!/bin/bash
cd ..
python src/train.py \
    --output_dir out \
    --per_device_train_batch_size 4 \
    --bf16 \
    --fp16
    ^^^^^^ warning[fp16-and-bf16-enabled]: This assumes `train.py` is taken to read these flags into TrainingArguments
