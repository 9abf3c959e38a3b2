#: name: fsdp-config-invalid: before 0.14 --use-custom-fsdp refuses gradient accumulation fusion (on by default) under optim_grads or optim_grads_params sharding (training/arguments.py@core_v0.12.0:558-561)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-custom-fsdp --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads \
#                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]: optim_grads_params optim_grads are not supported with gradient accumulation fusion
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --overlap-param-gather
