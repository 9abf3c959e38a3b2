#: name: trainer-deepspeed-mismatch: train.py imports its parser from a package of the repository (`from finetune.schemas import Args`, plain argparse, a trainer of its own on Accelerate), so its flags are not TrainingArguments and the Trainer's default batch of 8 is never compared with the JSON: nothing is reported
#: path: finetune/train.sh
#!/usr/bin/env bash
accelerate launch --config_file accelerate_config.yaml train.py \
    --output_dir out --report_to tensorboard --seed 42 \
    --batch_size 1 --gradient_accumulation_steps 1 --deepspeed ds.json
