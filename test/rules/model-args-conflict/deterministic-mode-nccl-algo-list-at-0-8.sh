#: name: model-args-conflict: from core_v0.8.0 (training/arguments.py@core_v0.8.0:556-561) to 0.18 a list is refused too: the check compares the whole value with each allowed name
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=Ring,Tree
#                ^^^^^^^^^ error[model-args-conflict]: take the variable as a whole
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
