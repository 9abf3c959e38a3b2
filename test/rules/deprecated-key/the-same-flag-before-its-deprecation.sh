#: name: deprecated-key: Megatron Core 0.18 reads --moe-deepep-num-sms without a warning (the deprecation arrives in core_v0.19.0): nothing
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-experts 8 --expert-model-parallel-size 8 --moe-token-dispatcher-type flex \
    --moe-deepep-num-sms 24
