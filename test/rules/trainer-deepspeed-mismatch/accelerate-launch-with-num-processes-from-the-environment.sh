#: name: trainer-deepspeed-mismatch: `accelerate launch --num_processes "$NP" --config_file`: the command's process count, which comes from the environment, overrides the Accelerate config's `num_processes`, so the world is unknown and train_batch_size is not compared (accelerate launch takes a config value only for an option the command leaves unset: commands/launch.py@v1.10.0:1086-1104)
#: path: launch.sh
accelerate launch --num_processes "$NP" --config_file configs/zero3.yaml train.py \
    --output_dir out \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 2 \
    --learning_rate 1e-5
