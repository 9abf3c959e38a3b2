#: name: fp16-and-bf16-enabled: the program reads its command line with absl and shows no HfArgumentParser (nor do the modules it imports), so TrainingArguments never see these flags: not a Trainer launch, nothing is reported (TrainingArguments come from the command line only through HfArgumentParser: transformers hf_argparser.py@v4.57.6:272)
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --output_dir out \
    --learning_rate 2e-5 \
    --per_device_train_batch_size 4 \
    --bf16 \
    --fp16
