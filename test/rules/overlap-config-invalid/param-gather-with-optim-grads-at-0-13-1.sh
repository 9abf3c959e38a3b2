#: name: overlap-config-invalid: --overlap-param-gather with --data-parallel-sharding-strategy optim_grads runs at 0.13.1, whose argument checks turn --overlap-grad-reduce on first (training/arguments.py@core_v0.13.0:587-598)
#: settings: {"targetVersions": {"megatron-core": "0.13.1"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 8 --bf16
