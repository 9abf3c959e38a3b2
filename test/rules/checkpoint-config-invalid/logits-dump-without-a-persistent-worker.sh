#: name: checkpoint-config-invalid: --async-save without a persistent worker is turned off before the logits check (training/arguments.py@core_v0.19.0:1740-1756)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --logits-save-dir /logits --logits-save-top-k 8 --async-save
#   ^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: --logits-save-dir requires --async-save (and --use
#                                                   ^^^^^^^^^^^^ warning[checkpoint-config-invalid]: turns async save off
