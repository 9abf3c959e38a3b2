DIST=(--nproc_per_node 8)
ARGS=(
    --tensor-model-parallel-size 2
    --seq
)
torchrun "${DIST[@]}" pretrain_gpt.py "${ARGS[@]}" \
    --micro-batch-size 1 \
    --te
