#: name: trainer-accelerate-precision: the Trainer's parser in a module the program imports with a backslash continuation and `import … as` (`from utils` ending its line with a backslash, then `import args as cli`), which parses TrainingArguments with HfArgumentParser: the import is followed, so the program is known to read the flags into TrainingArguments, and `--fp16 False --bf16 False` under Accelerate's DeepSpeed with `mixed_precision: fp16` stops the run (training_args.py@v4.57.6:1872-1878; integrations/deepspeed.py@v4.57.6:186-190,269-274): an error
#: path: train.sh
# shardwise: transformers=4.57.6
accelerate launch --config_file zero2.yaml sft.py \
  --model_name_or_path Qwen/Qwen2.5-7B --output_dir out \
  --per_device_train_batch_size 4 --learning_rate 2e-5 \
  --fp16 False --bf16 False
               ^^^^^^^^^^^^ error[trainer-accelerate-precision]: asks for `fp16` under DeepSpeed
