#: name: unknown-key: a program that imports nothing of Megatron and whose own argparse parser defines most of the flags passed (an inference script of a model with Megatron-like flag names) is not run by Megatron-LM: nothing is reported
#: path: scripts/infer.sh
#!/bin/bash
python tools/infer.py \
    --num-layers 39 --hidden-size 5120 --num-attention-heads 40 \
    --seq-length 2048 --micro-batch-size 1 \
    --load /ckpt/model.pt \
    --temperature 0.8 --top-p 0.95 --out-seq-length 512
