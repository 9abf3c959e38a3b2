#: name: model-args-conflict: caching MLA latents refuses the RoPE fusion (transformer_config.py@core_v0.14.0:1467-1470, @d98e8a6:3351-3354)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --position-embedding-type rope --cache-mla-latents
#                                                           ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Rope Fusion is not compatible with caching latents
#                                                           ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: cache_mla_latents conflicts with training
