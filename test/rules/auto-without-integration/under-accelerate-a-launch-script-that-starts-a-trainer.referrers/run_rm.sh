#!/bin/bash
accelerate launch --config_file accelerate.yaml src/rm_train.py \
    --model_name_or_path /models/base \
    --per_device_train_batch_size 2 \
    --gradient_accumulation_steps 4 \
    --learning_rate 1e-5 \
    --num_train_epochs 1 \
    --bf16 True \
    --output_dir out
