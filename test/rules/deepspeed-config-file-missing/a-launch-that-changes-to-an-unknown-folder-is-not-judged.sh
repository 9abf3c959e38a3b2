#: name: deepspeed-config-file-missing: a launch script that changes to a folder it is given when it runs (`cd $WORKDIR`) names a relative JSON nobody here can resolve: nothing is said
#: path: scripts/run.sh
#: files: none
#!/bin/bash
cd "$WORKDIR"
torchrun --nproc_per_node 8 train.py \
    --model_name_or_path Qwen/Qwen2.5-Coder-7B \
    --output_dir out \
    --per_device_train_batch_size 2 \
    --learning_rate 1e-5 \
    --deepspeed configs/ds_z3_offload.json
