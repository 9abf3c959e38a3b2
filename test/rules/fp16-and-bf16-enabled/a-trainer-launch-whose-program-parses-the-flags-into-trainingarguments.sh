#: name: fp16-and-bf16-enabled: the same flags read by HfArgumentParser into TrainingArguments (transformers hf_argparser.py@v4.57.6:272) reach TrainingArguments as written, whose checks refuse fp16 and bf16 together (training_args.py): an error on the launch line
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --output_dir out \
    --learning_rate 2e-5 \
    --per_device_train_batch_size 4 \
    --bf16 \
    --fp16
    ^^^^^^ error[fp16-and-bf16-enabled]: At most one of fp16 and bf16
