#: name: unread-key: Megatron-LM 0.15.3 takes --disable-mamba-mem-eff-path as a store_true into disable_mamba_mem_eff_path (arguments.py@core_v0.15.3:3276), which nothing reads: TransformerConfig's use_mamba_mem_eff_path (transformer_config.py@core_v0.15.0:705, default True) is filled by field name (arguments.py@core_v0.13.0:1124-1125); from 0.16.0 the flag is the field's (transformer_config.py@core_v0.16.0:859-860)
#: settings: {"targetVersions": {"megatron-core": "0.15.3"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_mamba.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --disable-mamba-mem-eff-path
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[unread-key]: changes nothing there
