#: name: trainer-deepspeed-mismatch: a program with its own argparse parser and nothing of the Trainer's (a speech model's train.py) shares flag names such as --output_dir and --seed with TrainingArguments, but its launch script is not a Trainer launch script: nothing is reported (not even the repeated --seed, which is its own parser's business) (TrainingArguments come from flags through HfArgumentParser: transformers hf_argparser.py@v4.57.6:111, 272)
#: path: scripts/train.sh
#!/bin/bash
python -m torch.distributed.launch --nproc_per_node=8 train.py --dataset_dir /data --val_manifest v.json \
  --model_config rnnt.yaml --epochs 100 --beta1 0.9 --output_dir /results --seed 1 --weight_decay 1e-3 \
  --per_device_train_batch_size 4 --deepspeed ds.json --seed 2
