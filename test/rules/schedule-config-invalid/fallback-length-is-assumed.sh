#: name: schedule-config-invalid: a training length from the script's fallback default is assumed (the environment may set it to 0 or leave it): a warning that names the assumption
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
TRAIN_ITERS=${TRAIN_ITERS:-50000}
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters $TRAIN_ITERS --lr-decay-samples 900000 --eval-interval 1000
#                              ^^^^^^^^^^^^^^^^^^ warning[schedule-config-invalid]: This assumes `TRAIN_ITERS` is not set when the script runs
