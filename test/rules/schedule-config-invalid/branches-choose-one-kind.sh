#: name: schedule-config-invalid: the two kinds in the two arms of an `if` are never given together: nothing to report (the words the branches choose are said not analysed)
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
if [ "$BY_SAMPLES" = 1 ]; then
    SCHEDULE="--train-samples 1000000 --lr-decay-samples 900000"
else
    SCHEDULE="--train-iters 50000 --lr-decay-iters 50000"
fi
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    $SCHEDULE
#   ^^^^^^^^^ information[script-not-analysed]: SCHEDULE is assigned differently in the branches
