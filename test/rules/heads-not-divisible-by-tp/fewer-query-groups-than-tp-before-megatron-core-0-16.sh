#: name: heads-not-divisible-by-tp: 8 query groups under TP 16 stop Megatron Core before 0.16.0, whose TransformerConfig needs the groups to be a multiple of TP (core_v0.15.3 transformer_config.py L758-762)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
# shardwise: hardware=gb200-nvl72
# shardwise-disable tp-larger-than-needed, missing-tp-comm-overlap -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 4 --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --group-query-attention --num-query-groups 8 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 16 --sequence-parallel \
#                                ^^ error[heads-not-divisible-by-tp]: Megatron Core before 0.16.0 needs the groups to be a multiple of TP
    --micro-batch-size 1 --global-batch-size 16 --bf16
