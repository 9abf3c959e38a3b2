#: name: batch-config-invalid: with no release named, the schedule itself needs 0.18 or later, where both together are refused: an error
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 \
    --global-batch-size 1536 \
    --step-batch-size-schedule "0:768 100000:1536" \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[batch-config-invalid]: Remove `--global-batch-size`
    --bf16
