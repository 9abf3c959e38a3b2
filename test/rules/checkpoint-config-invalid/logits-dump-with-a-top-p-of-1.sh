#: name: checkpoint-config-invalid: a logits dump with a top-p of 1 and a floor of 2 runs (distillation/logits_saver.py@core_v0.19.0:153-160)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --logits-save-dir /logits --logits-save-top-k 8 --async-save --use-persistent-ckpt-worker \
    --logits-save-top-p 1 --logits-save-top-p-min-k 2
