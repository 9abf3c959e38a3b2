#: name: fsdp-config-invalid: --use-megatron-fsdp is no flag before core_v0.14.0, which refuses it in argparse; the checks of --use-custom-fsdp (training/arguments.py@core_v0.13.0:646-660) are not made for it
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params \
#   ^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]
    --check-weight-hash-across-dp-replicas-interval 100 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce

