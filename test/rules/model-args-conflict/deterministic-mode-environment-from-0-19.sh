#: name: model-args-conflict: from core_v0.19.0 deterministic mode refuses the non-deterministic values of the variables it checks (megatron/training/determinism.py@core_v0.19.0:87-111); CAUSAL_CONV1D_DETERMINISTIC only after 0.19
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=Ring,Tree
#                ^^^^^^^^^ error[model-args-conflict]: each token must be in
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=1
#                                       ^ error[model-args-conflict]: is not a deterministic setting
export CUBLAS_WORKSPACE_CONFIG=:0:0
#                              ^^^^ error[model-args-conflict]: is not a deterministic setting
export MAMBA_DETERMINISTIC=0
#                          ^ error[model-args-conflict]: disables
export CAUSAL_CONV1D_DETERMINISTIC=0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
