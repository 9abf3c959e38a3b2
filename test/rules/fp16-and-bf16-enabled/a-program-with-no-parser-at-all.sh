#: name: fp16-and-bf16-enabled: a program that reads no command line at all, in its text or in every module of the workspace it imports, takes no TrainingArguments from these flags: nothing is reported
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --output_dir out \
    --learning_rate 2e-5 \
    --per_device_train_batch_size 4 \
    --bf16 \
    --fp16
