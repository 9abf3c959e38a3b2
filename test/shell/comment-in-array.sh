ARGS=(
  --lr 1 # --te
)
torchrun x.py "${ARGS[@]}"
