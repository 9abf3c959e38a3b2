#: name: moe-config-invalid: quantile balancing (0.20) takes no expert capacity either (transformer_config.py@d98e8a6:1851-1860)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type alltoall --moe-router-load-balancing-type quantile_balancing --moe-expert-capacity-factor 1.0
#                                                                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: quantile_balancing
