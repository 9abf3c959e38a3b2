#: name: moe-config-invalid: Megatron Core refuses more top groups than groups (transformer_config.py@d98e8a6:2686-2689)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --disable-bias-linear --moe-router-group-topk 4 --moe-router-num-groups 2
#                                         ^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: moe_router_group_topk (4) should be smaller than moe_router_
