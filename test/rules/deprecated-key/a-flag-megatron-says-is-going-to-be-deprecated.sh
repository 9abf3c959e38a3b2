#: name: deprecated-key: from Megatron Core 0.16.0 TransformerConfig.__post_init__ warns that --moe-router-padding-for-fp8 "is going to be deprecated" and turns --moe-router-padding-for-quantization on (megatron/core/transformer/transformer_config.py@core_v0.16.0:1613-1619): an announced deprecation is one too, a note
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 --fp8-format hybrid \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-experts 8 --expert-model-parallel-size 8 --moe-token-dispatcher-type alltoall \
    --moe-router-padding-for-fp8
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: carries its value over to `--moe-router-padding-for-quantization`
