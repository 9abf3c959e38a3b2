#: name: checkpoint-config-invalid: --async-save with --ckpt-format torch stops at the first save (training/checkpointing.py@core_v0.9.0:385-386, @d98e8a6:764-767)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 100 --async-save --use-persistent-ckpt-worker --ckpt-format torch
#                                    ^^^^^^^^^^^^ error[checkpoint-config-invalid]: not implemented for legacy checkpoints
