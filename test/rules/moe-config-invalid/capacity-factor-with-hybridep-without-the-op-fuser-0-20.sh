#: name: moe-config-invalid: 0.20 refuses an expert-rank capacity factor with HybridEP and neither the op fuser nor the grouped expert tensor (transformer_config.py@d98e8a6:1874-1882)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep --moe-expert-rank-capacity-factor 1.5
#                                                                                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires use_transformer_engine_op_fuser=True or moe_use_grouped_tensor=True
