#!/bin/bash
# shardwise: hardware=gb200-nvl72
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 36 --nproc_per_node 4 pretrain_gpt.py \
    --num-attention-heads 64 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 8 --sequence-parallel --tp-comm-overlap \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 144 --bf16
