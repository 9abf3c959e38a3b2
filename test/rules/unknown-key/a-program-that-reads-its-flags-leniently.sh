#: name: unknown-key: a program that reads Megatron's arguments leniently (`parse_args(ignore_unknown_args=True)`) drops a flag it does not know: nothing is refused, so nothing is reported
#: path: convert.sh
#!/bin/bash
python convert.py \
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 2 \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --load /ckpt \
    --fused-rmsnorm
