#: name: fp16-and-bf16-enabled: a program that hands the command line to HfArgumentParser three modules down its own package (as LLaMA-Factory's src/train.py → tuner → hparams/parser.py does) is still a Trainer launch; the modules read first do not show the dataclasses, so the reading is assumed and named
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 src/train.py \
    --output_dir out \
    --learning_rate 2e-5 \
    --per_device_train_batch_size 4 \
    --bf16 \
    --fp16
    ^^^^^^ warning[fp16-and-bf16-enabled]: This assumes `train.py` is taken to read these flags into TrainingArguments (a module its package imports hands the command line to HfArgumentParser
