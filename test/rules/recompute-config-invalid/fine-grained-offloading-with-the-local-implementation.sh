#: name: recompute-config-invalid: fine-grained activation offloading needs Transformer Engine's layers (training/arguments.py@core_v0.16.0:1222-1224, @d98e8a6:1935-1937)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --fine-grained-activation-offloading --transformer-impl local
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: Fine-grained activation offloading is only support
