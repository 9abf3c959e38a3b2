#: name: schedule-config-invalid: a linear weight decay with both ends, and a minimum learning rate below `--lr`, run
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr 3e-4 --min-lr 3e-4 --eval-interval 1000 \
    --weight-decay-incr-style linear --start-weight-decay 0.01 --end-weight-decay 0.1
