#: name: model-args-conflict: hybrid context parallelism refuses pipeline parallelism (training/arguments.py@core_v0.16.0:918-919, @d98e8a6:1444-1445)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --hybrid-context-parallel --calculate-per-token-loss --pipeline-model-parallel-size 2
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Hybrid context parallelism not supported with pipe
