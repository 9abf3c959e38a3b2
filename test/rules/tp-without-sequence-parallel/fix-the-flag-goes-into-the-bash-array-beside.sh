#: name: tp-without-sequence-parallel: the flag goes into the bash array beside its neighbours
#: path: train.sh
#: fix: tp-without-sequence-parallel Turn sequence parallelism on
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
MODEL_PARALLEL_ARGS=(
    --tensor-model-parallel-size 4
    --pipeline-model-parallel-size 2
)
torchrun --nproc_per_node 8 pretrain_gpt.py \
    "${MODEL_PARALLEL_ARGS[@]}" \
    --use-distributed-optimizer --bf16
