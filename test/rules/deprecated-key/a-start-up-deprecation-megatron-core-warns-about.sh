#: name: deprecated-key: Megatron Core 0.19 warns at startup that --moe-deepep-num-sms is deprecated and carries it over to --moe-flex-dispatcher-num-sms (transformer_config.py@core_v0.19.0:1616-1630, the __post_init__ warning): a note, which 0.18 does not get
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-experts 8 --expert-model-parallel-size 8 --moe-token-dispatcher-type flex \
    --moe-flex-dispatcher-backend deepep --moe-deepep-num-sms 24
#                                        ^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
