#: name: batch-invariant-config-invalid: at 0.19 context parallelism and a written attention dropout are refused with the mode (transformer_config.py@core_v0.19.0:2889-2895)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --batch-invariant-mode --attention-backend flash --flash-attention-version 3 --attention-dropout 0.05 --context-parallel-size 2
#                                                                                ^^^^^^^^^^^^^^^^^^^ error[batch-invariant-config-invalid]: does not support attention dropout
#                                                                                                         ^^^^^^^^^^^^^^^^^^^^^^^ error[batch-invariant-config-invalid]: does not support context parallelism
