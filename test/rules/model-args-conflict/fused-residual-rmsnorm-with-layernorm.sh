#: name: model-args-conflict: Megatron Core refuses the fused residual RMSNorm with LayerNorm, the default (transformer_config.py@d98e8a6:2452-2456, from core_v0.17.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fused-residual-rmsnorm
#   ^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: fused_residual_rmsnorm is only supported when normalization 
