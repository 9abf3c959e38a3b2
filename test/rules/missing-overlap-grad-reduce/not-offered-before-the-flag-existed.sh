#: name: missing-overlap-grad-reduce: Megatron Core 0.2.0 predates --overlap-grad-reduce, --overlap-param-gather and --tp-comm-overlap (first in the 0.4.0 parser; x-absent-before-core), so none of them is advised for it
#: settings: {"targetVersions": {"megatron-core": "0.2.0"}}
#!/bin/bash
# shardwise-disable tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --bf16 \
    --micro-batch-size 1 --global-batch-size 64
