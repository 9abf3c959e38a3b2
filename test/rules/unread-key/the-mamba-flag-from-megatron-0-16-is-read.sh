#: name: unread-key: from 0.16.0 --disable-mamba-mem-eff-path is the arg_names of the field use_mamba_mem_eff_path (transformer_config.py@core_v0.16.0:859-860) and turns the path off: nothing to say
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_mamba.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --disable-mamba-mem-eff-path
