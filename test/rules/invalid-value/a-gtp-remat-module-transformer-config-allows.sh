#: name: invalid-value: moe_latent_proj is the one module TransformerConfig.__post_init__ allows in --gtp-remat-opt-in-modules (transformer_config.py@d98e8a6:2202-2208)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --gtp-remat-opt-in-modules moe_latent_proj
