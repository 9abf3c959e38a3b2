#: name: model-args-conflict: with the local attention only NCCL_ALGO is missing before core_v0.19.0 (training/arguments.py@core_v0.18.2:1536-1542); the local attention does not read NVTE_ALLOW_NONDETERMINISTIC_ALGO
#: settings: {"targetVersions": {"megatron-core": "0.18.2"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode --transformer-impl local
#   ^^^^^^^^^^^^^^^^^^^^ warning[model-args-conflict]: Add `export NCCL_ALGO=Ring` before the launch
