#: name: fsdp-config-invalid: NCCL user buffers with expandable segments exported stop when the DDP config is built (distributed_data_parallel_config.py@core_v0.15.0:145-150)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format fsdp_dtensor \
    --use-megatron-fsdp --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --use-nccl-ub
#   ^^^^^^^^^^^^^ error[fsdp-config-invalid]: expandable segments do not work with
