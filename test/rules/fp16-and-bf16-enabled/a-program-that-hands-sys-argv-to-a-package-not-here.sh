#: name: fp16-and-bf16-enabled: a program that hands `sys.argv` to a package the workspace does not hold may parse it with HfArgumentParser there: still a Trainer launch, the reading assumed and named
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --output_dir out \
    --learning_rate 2e-5 \
    --per_device_train_batch_size 4 \
    --bf16 \
    --fp16
    ^^^^^^ warning[fp16-and-bf16-enabled]: This assumes `train.py` is taken to read these flags with the Transformers HfArgumentParser (it does not show its parser
