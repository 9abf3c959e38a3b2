#: name: checkpoint-config-invalid: --non-persistent-ckpt-type in_memory is offered but refused (training/arguments.py@d98e8a6:398-399, from core_v0.11.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 \
    --train-iters 1000 --save /ckpt --save-interval 1000 --non-persistent-save-interval 100 --non-persistent-ckpt-type in_memory --eval-interval 1000
#                                                                                           ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]
