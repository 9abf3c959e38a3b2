#: name: schedule-config-invalid: `--train-iters` and `--train-samples` together is one finding, on the second
#: path: train.sh
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 \
    --train-samples 12800000 \
#   ^^^^^^^^^^^^^^^ error[schedule-config-invalid]: trains either by iterations or by samples
    --lr-decay-iters 50000
