#: name: trainer-deepspeed-mismatch: `llamafactory-cli train --stage ppo …` trains with LLaMA-Factory's PPO trainer, whose own loop does not run the Trainer's DeepSpeed check: nothing is compared
#: path: train.sh
llamafactory-cli train --stage ppo --finetuning_type lora --model_name_or_path Qwen/Qwen2.5-7B \
  --per_device_train_batch_size 4 --learning_rate 1e-5 --output_dir out --deepspeed ds.json
