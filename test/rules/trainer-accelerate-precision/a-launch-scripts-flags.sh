#: name: trainer-accelerate-precision: a launch script's own flags (`--fp16 False --bf16 False`) under an Accelerate DeepSpeed config with `mixed_precision: fp16`: the plugin's fp16 section is compared with fp16=False and stops the run (training_args.py@v4.57.6:1872-1878,2082-2089; integrations/deepspeed.py@v4.57.6:186-190,269-274)
#: path: train.sh
# shardwise: transformers=4.57.6
accelerate launch --config_file zero2.yaml sft.py \
  --model_name_or_path Qwen/Qwen2.5-7B --output_dir out \
  --per_device_train_batch_size 4 --learning_rate 2e-5 \
  --fp16 False --bf16 False
               ^^^^^^^^^^^^ error[trainer-accelerate-precision]: asks for `fp16` under DeepSpeed
