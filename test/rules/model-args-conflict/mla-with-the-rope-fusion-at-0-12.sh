#: name: model-args-conflict: before core_v0.13.0 multi-latent attention refuses the RoPE fusion (transformer_config.py@core_v0.11.0:740-741)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --position-embedding-type rope
#   ^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: multi_latent_attention does not support apply_rope_fusion
