#: name: overlap-config-invalid: --overlap-param-gather with --data-parallel-sharding-strategy optim_grads_params runs at 0.12, whose argument checks turn both overlaps on first (training/arguments.py@core_v0.12.0:495-507)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 8 --bf16
