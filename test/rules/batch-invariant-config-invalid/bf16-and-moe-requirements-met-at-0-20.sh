#: name: batch-invariant-config-invalid: batch-invariant MoE training with everything 0.20 asks for (transformer_config.py@d98e8a6:3200-3275)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type alltoall \
    --batch-invariant-mode --attention-backend flash --flash-attention-version 3 --attention-dropout 0.0
