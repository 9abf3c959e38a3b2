#: name: recompute-config-invalid: --moe-layer-recompute with full recomputation stops from 0.12 (transformer_config.py@core_v0.12.0:759-762, "Do not set --moe-layer-recompute with full recompute granularity")
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 4 --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 --moe-layer-recompute
#                                                                                                    ^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: Do not set --moe-layer-recompute with full recompute granularity
#                                                                                                    ^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: turns it into selective recomputation
