#: name: overlap-param-gather-requires-distributed-optimizer: Megatron FSDP passes the check whatever its sharding strategy (arguments.py@core_v0.15.0:626 `args.use_megatron_fsdp`), the optimizer-only one included: nothing
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 --use-megatron-fsdp --data-parallel-sharding-strategy optim \
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format fsdp_dtensor \
    --overlap-grad-reduce --overlap-param-gather
