#: name: batch-invariant-config-invalid: 0.19 does not ask for BF16 parameters (transformer_config.py@core_v0.19.0:2875-2895)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --batch-invariant-mode --attention-backend flash --flash-attention-version 3 --attention-dropout 0.0
