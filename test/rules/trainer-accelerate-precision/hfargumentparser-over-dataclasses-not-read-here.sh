#: name: trainer-accelerate-precision: a program that gives HfArgumentParser dataclasses of a package that is not in the workspace (`from mytrainer.args import ModelArguments, TrainArgs`) may or may not parse the flags into TrainingArguments: taken to, as an assumption the message names, so `--fp16 False --bf16 False` under Accelerate's DeepSpeed with `mixed_precision: fp16`, which stops a Trainer run (training_args.py@v4.57.6:1872-1878; integrations/deepspeed.py@v4.57.6:186-190,269-274), is a warning, not an error
#: path: train.sh
# shardwise: transformers=4.57.6
accelerate launch --config_file zero2.yaml sft.py \
  --model_name_or_path Qwen/Qwen2.5-7B --output_dir out \
  --per_device_train_batch_size 4 --learning_rate 2e-5 \
  --fp16 False --bf16 False
               ^^^^^^^^^^^^ warning[trainer-accelerate-precision]: taken to read these flags into TrainingArguments (its HfArgumentParser is given `ModelArguments` and `TrainArgs`, whose classes are in no file read here)
