#: name: num-query-groups-without-gqa: as many query groups as attention heads is multi-head attention, which is what runs without --group-query-attention anyway: nothing
#!/bin/bash
# shardwise-disable tp-larger-than-needed, missing-tp-comm-overlap -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --num-query-groups 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --tensor-model-parallel-size 8 --sequence-parallel \
    --micro-batch-size 1 --global-batch-size 64
