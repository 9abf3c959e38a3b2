#: name: checkpoint-config-invalid: top-p and its floor out of range without `--logits-save-dir` are never read (training.py@core_v0.19.0:2092)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --logits-save-top-p 1.5 --logits-save-top-p-min-k 0
