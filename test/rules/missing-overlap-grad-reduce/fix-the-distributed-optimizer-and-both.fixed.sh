#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 2 --sequence-parallel --tp-comm-overlap \
    --overlap-grad-reduce \
    --overlap-param-gather \
    --bf16 \
    --use-distributed-optimizer
