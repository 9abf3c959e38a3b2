#: name: trainer-accelerate-precision: the same launch whose program gives HfArgumentParser its own dataclass and its own subclass of TrainingArguments (`class TrainArgs(transformers.TrainingArguments)`, defined in a module it imports): TrainingArguments read `--bf16 True` and replace Accelerate's `no` with bf16 (training_args.py@v4.57.6:1872-1878), a warning
#: path: run.sh
# shardwise: transformers=4.57.6
accelerate launch --config_file accelerate_config.yaml train.py \
  --model_name gpt2 \
  --output_dir out \
  --learning_rate 1e-5 \
  --per_device_train_batch_size 2 \
  --gradient_accumulation_steps 4 \
  --bf16 True
  ^^^^^^^^^^^ warning[trainer-accelerate-precision]: the recipe wins
