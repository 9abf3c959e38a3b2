#: name: heads-not-divisible-by-tp: 64 heads written without layers or hidden size still refuse TP 12 (megatron/core/transformer/transformer_config.py@core_v0.19.0:1323, @core_v0.4.0:204), so a fix that sets TP 12 is seen to fail
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
# shardwise: hardware=gb200-nvl72
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 36 --nproc_per_node 4 pretrain_gpt.py \
    --num-attention-heads 64 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 12 --sequence-parallel --tp-comm-overlap \
#                                ^^ error[heads-not-divisible-by-tp]: The model (as written in this file) has 64 attention heads, not a multiple of TP 12
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 144 --bf16
