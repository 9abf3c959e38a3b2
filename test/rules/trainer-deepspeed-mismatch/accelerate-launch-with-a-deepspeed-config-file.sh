#: name: trainer-deepspeed-mismatch: `accelerate launch --config_file` whose Accelerate config names a DeepSpeed JSON: the Trainer takes that JSON from Accelerate's plugin and checks it the same way, over the config's `num_processes` (transformers trainer.py@v4.57.6:5537-5575)
#: path: launch.sh
accelerate launch --config_file configs/zero3.yaml train.py \
    --output_dir out \
    --per_device_train_batch_size 4 \
#                                 ^ error[trainer-deepspeed-mismatch]: with 8 processes (world = `num_processes: 8` of configs/zero3.yaml), so train_batch_size (calculated) is 64, but ds_zero3.json sets `train_batch_size` to 32
    --gradient_accumulation_steps 2 \
    --learning_rate 1e-5
