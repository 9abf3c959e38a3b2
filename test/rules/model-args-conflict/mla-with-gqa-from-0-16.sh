#: name: model-args-conflict: from Megatron Core 0.16 grouped-query attention beside multi-latent attention stops the argument checks (arguments.py@core_v0.16.0:1265-1266)
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.16.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --multi-latent-attention --kv-lora-rank 512 \
    --group-query-attention --num-query-groups 4 \
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Group query attention is mutually exclusive with multi latent attention
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather
