#: name: model-args-conflict: a variable exported in one branch of an `if` the script does not decide holds only if that branch runs: at most a warning that names the branch; one exported on every path is an error as before
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
if [ "$FAST" = 1 ]; then
  export NVTE_ALLOW_NONDETERMINISTIC_ALGO=1
#                                         ^ warning[model-args-conflict]: This assumes NVTE_ALLOW_NONDETERMINISTIC_ALGO is set only in some branches of the `if`
fi
if [ "$DEBUG" = 1 ]; then
  export CUBLAS_WORKSPACE_CONFIG=:0:0
else
  export CUBLAS_WORKSPACE_CONFIG=:0:0
#                                ^^^^ error[model-args-conflict]: is not a deterministic setting
fi
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
