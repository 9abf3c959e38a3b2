export CODE=/path/to/code
export MODEL=/path/to/model

accelerate launch --config_file $CODE/configs/ds_config.yaml \
scripts/train.py \
--model_path $MODEL \
--bf16 True \
--logging_steps 10 \
--output_dir out \
--per_device_train_batch_size 1 \
--gradient_accumulation_steps 1 \
--learning_rate 3e-4
