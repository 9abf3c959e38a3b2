#: name: expert-grid-mismatch: the node count is a platform variable's fallback (`${WORLD_SIZE:-1}`): a warning that names the assumption, not an error
#: path: /project/scripts/run_16xH20.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
NUM_NODES=${WORLD_SIZE:-1}
GPUS_PER_NODE=${KUBERNETES_CONTAINER_RESOURCE_GPU:-8}
DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
)
torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    --num-layers 94 --hidden-size 4096 --num-attention-heads 64 \
    --num-experts 128 --moe-router-topk 8 \
    --tensor-model-parallel-size 1 \
    --pipeline-model-parallel-size 2 \
    --expert-model-parallel-size 8 \
#                                ^ warning[expert-grid-mismatch]: This assumes `KUBERNETES_CONTAINER_RESOURCE_GPU` is not set when the script runs
    --micro-batch-size 1 --global-batch-size 1024 \
    --bf16
