#: name: moe-config-invalid: Megatron Core refuses top-1 routing over softmax scores taken after the choice (transformer_config.py@d98e8a6:2662-2669, from core_v0.11.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --disable-bias-linear --moe-router-topk 1
#                                         ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Please use --moe-router-pre-softmax when topk is 1
