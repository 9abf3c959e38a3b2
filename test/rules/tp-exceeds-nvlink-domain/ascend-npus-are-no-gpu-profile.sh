#: name: tp-exceeds-nvlink-domain: a script for Ascend NPUs (HCCL_* settings, 16 devices per node) is not judged against the default H100 profile: its hardware is not known, nothing about NVLink
#!/bin/bash
# shardwise-disable missing-tp-comm-overlap -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
export HCCL_CONNECT_TIMEOUT=1200
NPUS_PER_NODE=16
torchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --tensor-model-parallel-size 16 --sequence-parallel \
    --micro-batch-size 1 --global-batch-size 64
