#: name: model-args-conflict: before core_v0.19.0 Transformer Engine attention refuses a non-zero NVTE_ALLOW_NONDETERMINISTIC_ALGO in deterministic mode (extensions/transformer_engine.py@core_v0.18.2:1697-1703); NCCL_ALGO=Tree is still accepted there
#: settings: {"targetVersions": {"megatron-core": "0.18.2"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=Tree
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=1
#                                       ^ error[model-args-conflict]: NVTE_ALLOW_NONDETERMINISTIC_ALGO is not 0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
