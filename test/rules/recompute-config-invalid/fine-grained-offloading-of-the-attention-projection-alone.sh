#: name: recompute-config-invalid: offloading the attention projection needs the attention core offloaded too (transformer_config.py@core_v0.16.0:1287-1292, @d98e8a6:2148-2153)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules attn_proj
#                                        ^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: attn_proj cannot be set to offload_modules alone
