#: name: fsdp-config-invalid: Megatron-FSDP version 2 refuses gradient accumulation fusion, which is on unless --no-gradient-accumulation-fusion is given (megatron/core/distributed/fsdp/mcore_fsdp_adapter.py@d98e8a6:672-673)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --use-megatron-fsdp --megatron-fsdp-version 2 --ckpt-format fsdp_dtensor \
#                              ^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]: does not support gradient accumulation fusion (on by default)
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000
