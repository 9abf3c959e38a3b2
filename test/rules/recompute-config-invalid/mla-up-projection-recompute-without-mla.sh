#: name: recompute-config-invalid: recomputing the MLA up-projection needs multi-latent attention (transformer_config.py@core_v0.12.0:740-744, @d98e8a6:1969-1973)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --recompute-granularity selective --recompute-modules core_attn mla_up_proj
#                                     ^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: only supported with multi_latent_attention
