#: name: fsdp-config-invalid: from 0.14 Megatron-FSDP without the distributed optimizer is only a warning (training/arguments.py@core_v0.14.0:619-639)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --data-parallel-sharding-strategy optim_grads \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
