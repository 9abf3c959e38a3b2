#: name: duplicate-key: in a Trainer launch script only the Trainer's own arguments are known to keep the last of two; a job launcher's repeated `--cluster` and `--env` (argparse nargs="+" and action="append" in open-instruct's mason.py) are not reported
#!/bin/bash
python mason.py \
    --cluster ai2/saturn \
    --cluster ai2/jupiter \
    --env OLMO_SHARED_FS=1 \
    --env 'TORCH_LOGS=graph_breaks' \
    --gpus 8 -- torchrun --nproc_per_node=8 \
    open_instruct/dpo.py \
    --per_device_train_batch_size 1 \
    --learning_rate 1e-6 \
#   ^^^^^^^^^^^^^^^ warning[duplicate-key]: `--learning_rate` is passed twice
    --output_dir out \
    --learning_rate 2e-6
