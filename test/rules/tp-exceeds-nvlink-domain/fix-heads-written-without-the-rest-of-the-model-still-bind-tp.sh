#: name: tp-exceeds-nvlink-domain: with 64 heads written but no layers or hidden size, TP 16 on gb200-nvl72 (domain 72) goes to 8, not 12: Megatron's TransformerConfig refuses heads that are not a multiple of TP (megatron/core/transformer/transformer_config.py@core_v0.19.0:1323)
#: path: train.sh
#: fix: tp-exceeds-nvlink-domain Set TP to 8
#!/bin/bash
# shardwise: hardware=gb200-nvl72
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nnodes 36 --nproc_per_node 4 pretrain_gpt.py \
    --num-attention-heads 64 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 16 --sequence-parallel --tp-comm-overlap \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 144 --bf16
