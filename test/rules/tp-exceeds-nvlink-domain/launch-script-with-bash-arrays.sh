#: name: launch script with bash arrays and variables: TP from `TP=16` crosses the NVLink domain; a misspelled flag
#: path: train.sh
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
#                                ^^^ warning[tp-exceeds-nvlink-domain]: TP 16 > NVLink domain 8
    --sequence-parallel
    --tp-comm-overlap
)
torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${MODEL_PARALLEL_ARGS[@]} \
    --tensor-model-paralel-size 2 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-key]: Did you mean `--tensor-model-parallel-size`
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --bf16
