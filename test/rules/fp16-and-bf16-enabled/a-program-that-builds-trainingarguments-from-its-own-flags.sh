#: name: fp16-and-bf16-enabled: a program that defines every flag it is passed with its own argparse parser and builds TrainingArguments from them in code (`fp16=args.fp16 and not args.bf16`) takes `--fp16 --bf16` as its own flags: only HfArgumentParser turns the command line into TrainingArguments (transformers hf_argparser.py@v4.57.6:272, parse_args_into_dataclasses), so the launch is not a Trainer launch and nothing is reported
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 train.py \
    --lr 2e-5 \
    --micro-batch-size 4 \
    --weight-decay 0.0001 \
    --adam-beta1 0.9 \
    --adam-beta2 0.95 \
    --bf16 \
    --fp16
