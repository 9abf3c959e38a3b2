#: name: model-args-conflict: MLA's RoPE fusion needs YaRN (MLATransformerConfig, transformer_config.py@core_v0.13.0:1311-1313, @d98e8a6:3345-3346)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --position-embedding-type rope --rope-type rope
#                                                           ^^^^^^^^^^^ error[model-args-conflict]: apply_rope_fusion for MLA only works with YARN RoPE
