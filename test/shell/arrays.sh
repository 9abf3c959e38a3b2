#!/bin/bash
# Pretrain a 7B GPT on two nodes.
export CUDA_DEVICE_MAX_CONNECTIONS=1

GPUS_PER_NODE=8
NUM_NODES=${NUM_NODES:-2}
WORLD_SIZE=$(( GPUS_PER_NODE * NUM_NODES ))
TP=4
PP=2
CHECKPOINT_DIR=$1

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
    --master_addr ${MASTER_ADDR:-localhost}
    --master_port 6000
)

MODEL_ARGS=(
    --num-layers 32
    --hidden-size 4096   # d_model
    --num-attention-heads 32
    --seq-length 4096
)

PARALLEL_ARGS=(
    --tensor-model-parallel-size $TP
    --pipeline-model-parallel-size "$PP"
    # the distributed optimizer shards the optimizer state over DP
    --use-distributed-optimizer
    --overlap-grad-reduce
)

TRAINING_ARGS=(
    --micro-batch-size 1
    --global-batch-size 512
    --lr 3.0e-4
    --bf16
    --save "$CHECKPOINT_DIR"
)

torchrun "${DISTRIBUTED_ARGS[@]}" pretrain_gpt.py \
    "${MODEL_ARGS[@]}" \
    "${PARALLEL_ARGS[@]}" \
    "${TRAINING_ARGS[@]}"
