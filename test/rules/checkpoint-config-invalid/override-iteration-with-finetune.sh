#: name: checkpoint-config-invalid: --override-ckpt-iteration with --finetune stops from 0.19 (training/arguments.py@core_v0.19.0:1770-1771, @d98e8a6:1851-1852)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --load /ckpt --override-ckpt-iteration 500 --finetune
#                ^^^^^^^^^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: Cannot override checkpoint iteration together with
