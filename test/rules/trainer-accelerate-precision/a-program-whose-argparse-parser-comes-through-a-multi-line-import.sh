#: name: trainer-accelerate-precision: a program that imports its argparse parser over several lines (`from utils.args_loader import (` … `)`, as diffusers-style scripts do) reads `--bf16` and the other flags itself: the import is followed, the parser found, and the launch is not a Trainer launch, so nothing overrides Accelerate's `no` and nothing is reported
#: path: train.sh
accelerate launch --config_file accelerate_config.yaml train.py \
  --pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5 \
  --output_dir=out \
  --learning_rate=3e-5 \
  --report_to=wandb \
  --train_batch_size=1 \
  --bf16
