#: name: schedule-config-invalid: a training length the script takes from the environment may be empty or zero, which upstream reads as not iteration-based: nothing to report
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters $TRAIN_ITERS --lr-decay-samples 900000
