#: name: trainer-accelerate-precision: a program that hands the command line to HfArgumentParser over its own dataclass only (`HfArgumentParser(ScriptArguments)`, a plain dataclass that happens to have a `bf16` field) fills that dataclass, not TrainingArguments (hf_argparser.py@v4.57.6:128-143,340-346): no TrainingArguments is built, nothing replaces Accelerate's `no` (training_args.py@v4.57.6:1872-1878 runs only in TrainingArguments), so the launch is not a Trainer launch and nothing is reported
#: path: run.sh
accelerate launch --config_file accelerate_config.yaml train.py \
  --model_name gpt2 \
  --output_dir out \
  --learning_rate 1e-5 \
  --per_device_train_batch_size 2 \
  --gradient_accumulation_steps 4 \
  --bf16 True
