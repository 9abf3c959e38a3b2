#: name: duplicate-key: a variable holding a placeholder to fill in (`"<see --data-path in arguments.py>"`) is not words passed to the command: its `--data-path` is not a second flag
#: path: examples/train.sh
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
DATA_BLEND="<see --data-path in arguments.py>"
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 64 --train-iters 100 --lr 1e-4 --eval-interval 1000 \
    --data-path /data/corpus_text_document \
    --retro-project-dir ${DATA_BLEND}
