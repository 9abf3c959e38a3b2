#: name: checkpoint-config-invalid: logits are dumped through the async checkpoint queue (training/arguments.py@core_v0.19.0:1751-1756, @d98e8a6:1825-1830)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --logits-save-dir /logits --logits-save-top-k 8
#   ^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: --logits-save-dir requires --async-save (and --use
