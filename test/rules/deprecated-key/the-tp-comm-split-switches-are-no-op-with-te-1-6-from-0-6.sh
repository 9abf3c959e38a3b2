#: name: deprecated-key: from Megatron Core 0.6.0 `--disable-tp-comm-split-ag` only reaches Transformer Engine 1.5 and older (megatron/core/transformer/custom_layers/transformer_engine.py@core_v0.6.0:121-125 passes ub_split_ag only when TE <= 1.5; model_parallel_config.py@core_v0.6.0:159 "Deprecated from TransformerEngine v1.6.0")
#: path: /project/examples/run.sh
#: settings: {"targetVersions": {"megatron-core": "0.6.0"}}
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --disable-tp-comm-split-ag
    ^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-key]: deprecated since Megatron-LM 0.6.0
