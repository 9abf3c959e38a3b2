#: name: moe-config-invalid: from 0.20 NCCL-EP zero-copy in eager mode (no per-rank capacity) stops (moe/token_dispatcher.py@d98e8a6:1558-1563)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear --swiglu \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend ncclep --moe-ncclep-zero-copy
#                                                                                                                        ^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: moe_ncclep_zero_copy requires
