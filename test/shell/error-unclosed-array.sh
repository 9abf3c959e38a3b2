ARGS=(
  --lr 1
  --bf16
torchrun pretrain_gpt.py "${ARGS[@]}"
