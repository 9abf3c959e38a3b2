#: name: schedule-config-invalid: a minimum learning rate above `--lr` (megatron/arguments.py@core_v0.4.0:281-282, training/arguments.py@d98e8a6:1359-1360)
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr-decay-iters 50000 --eval-interval 1000 \
    --lr 3e-5 \
    --min-lr 3e-4
#   ^^^^^^^^ error[schedule-config-invalid]: is above `--lr
