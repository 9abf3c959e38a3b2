#: name: moe-config-invalid: Megatron Core refuses group-limited routing without a group count (transformer_config.py@d98e8a6:2677-2680, from core_v0.11.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --disable-bias-linear --moe-router-group-topk 2
#                                         ^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: When using group limited routing, moe_router_num_groups must
