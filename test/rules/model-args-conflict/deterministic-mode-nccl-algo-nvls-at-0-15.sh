#: name: model-args-conflict: before core_v0.19.0 validate_args takes NCCL_ALGO whole and accepts only Tree, Ring, CollnetDirect, CollnetChain or ^NVLS (training/arguments.py@core_v0.15.0:1073-1079), so NVLS stops at startup
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=NVLS
#                ^^^^ error[model-args-conflict]: NCCL_ALGO must be one of ['Tree', 'Ring', 'CollnetDirect', 'CollnetChain', '^NVLS'].
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
