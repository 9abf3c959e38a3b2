ARGS=(--lr 1e-4 --bf16)
torchrun pretrain_gpt.py "${ARGS[@]}" --lr 3e-4
