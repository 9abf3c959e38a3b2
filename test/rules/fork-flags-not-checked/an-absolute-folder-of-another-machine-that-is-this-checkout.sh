#: name: fork-flags-not-checked: the script runs the Megatron-LM at a folder of the machine that runs it (`/mnt/u/code/REPO`), and the entry script and a Megatron parser sit at this repository's root: that folder is this checkout, whose parser and release (0.12, package_info.py) judge the flags, so nothing is said about an unread Megatron-LM
#: path: /project/examples/run.sh
#: repository: files
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
WORK_DIR=/mnt/u/code/REPO
torchrun --nproc_per_node 8 $WORK_DIR/pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16
