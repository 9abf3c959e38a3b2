#: name: model-args-conflict: Megatron Core refuses interleaved rotary embeddings with multi-latent attention (transformer_config.py@d98e8a6:2526-2527, from core_v0.10.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --rotary-interleaved --no-rope-fusion
#                            ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: rotary_interleaved does not work with multi_latent_attention
