#: name: tp-exceeds-nvlink-domain: in a script, the fix edits the variable the flag reads (`TP=16`)
#: path: train.sh
#: fix: tp-exceeds-nvlink-domain Set TP to 8
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
GPUS_PER_NODE=8
NNODES=${NNODES:-2}
TP=16

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NNODES
)
MODEL_PARALLEL_ARGS=(
    --tensor-model-parallel-size $TP
    --sequence-parallel
    --tp-comm-overlap
)
torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${MODEL_PARALLEL_ARGS[@]} \
    --tensor-model-paralel-size 2 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --bf16
