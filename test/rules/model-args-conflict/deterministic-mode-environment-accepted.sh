#: name: model-args-conflict: deterministic mode takes the values determinism.py accepts (megatron/training/determinism.py@d98e8a6:48-63)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=Ring,^NVLS
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=0
export CUBLAS_WORKSPACE_CONFIG=:16:8
export MAMBA_DETERMINISTIC=1
export CAUSAL_CONV1D_DETERMINISTIC=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
