#!/bin/bash
# shardwise: hardware=h100-sxm
CUDA_DEVICE_MAX_CONNECTIONS=1
srun -N 2 --ntasks-per-node=1 \
  torchrun --nproc_per_node=8 --nnodes=2 /opt/megatron/pretrain_gpt.py \
    --tensor-model-parallel-size 8 \
    --pipeline-model-parallel-size 16 \
    --sequence-parallel --tp-comm-overlap \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 20 \
    --overlap-param-gather --overlap-grad-reduce \
    --bf16 \
    --use-distributed-optimizer
