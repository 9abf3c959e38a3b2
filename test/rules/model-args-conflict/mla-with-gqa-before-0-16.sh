#: name: model-args-conflict: before Megatron Core 0.16 the argument checks let grouped-query attention beside multi-latent attention through (arguments.py@core_v0.15.0): no finding
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.15.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --multi-latent-attention --kv-lora-rank 512 \
    --group-query-attention --num-query-groups 4 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather
