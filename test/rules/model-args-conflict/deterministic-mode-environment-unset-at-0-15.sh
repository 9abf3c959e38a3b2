#: name: model-args-conflict: before core_v0.19.0 nothing fills the deterministic mode's variables in: validate_args stops without NCCL_ALGO (training/arguments.py@core_v0.15.0:1073-1079) and Transformer Engine's attention takes an unset NVTE_ALLOW_NONDETERMINISTIC_ALGO as 1 (extensions/transformer_engine.py@core_v0.15.0:940); the environment may set them, so warnings that say so
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
#   ^^^^^^^^^^^^^^^^^^^^ warning[model-args-conflict]: this script does not set `NCCL_ALGO`
#   ^^^^^^^^^^^^^^^^^^^^ warning[model-args-conflict]: this assumes the environment that runs the script does not set it either. Add `export NVTE_ALLOW_NONDETERMINISTIC_ALGO=0`
