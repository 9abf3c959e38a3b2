#: name: batch-invariant-config-invalid: from 0.20 TransformerConfig asserts BF16 parameters, FP32 without --bf16 (transformer_config.py@d98e8a6:3211-3214, arguments.py@d98e8a6:1194)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --batch-invariant-mode --attention-backend flash --flash-attention-version 3 --attention-dropout 0.0
#   ^^^^^^^^^^^^^^^^^^^^^^ error[batch-invariant-config-invalid]: supports BF16 model parameters only
