#!/usr/bin/env bash
set -euo pipefail
MEGATRON=/opt/megatron-lm
torchrun --nproc-per-node=8 --nnodes=1 $MEGATRON/pretrain_gpt.py \
    --tensor-model-parallel-size 2 \
    --pipeline-model-parallel-size 1 \
    --num-layers 24 --hidden-size 2048 \
    --data-path 0.7 /data/web 0.3 /data/code \
    --lr-warmup-fraction=.01 \
    --bf16
echo done
