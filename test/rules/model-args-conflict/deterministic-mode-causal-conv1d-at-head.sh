#: name: model-args-conflict: after core_v0.19.0 deterministic mode also refuses CAUSAL_CONV1D_DETERMINISTIC=0 (megatron/training/determinism.py@d98e8a6:106-112)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export CAUSAL_CONV1D_DETERMINISTIC=0
#                                  ^ error[model-args-conflict]: disables SSM determinism under --deterministic-mode
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode
