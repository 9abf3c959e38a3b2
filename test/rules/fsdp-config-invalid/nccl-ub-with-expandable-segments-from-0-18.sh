#: name: fsdp-config-invalid: from 0.18 the DDP config refuses expandable segments only before PyTorch 2.11, which the file does not show: nothing
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --ckpt-format fsdp_dtensor \
    --use-megatron-fsdp --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --use-nccl-ub
