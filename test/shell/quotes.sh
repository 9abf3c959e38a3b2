DTYPE_ARGS=(
    "--fp8-format hybrid"
    "--fp8-amax-history-len 1024"
)
NAME=$'run\'s'
torchrun pretrain_gpt.py ${DTYPE_ARGS[@]} --wandb-exp-name "$NAME" --tokenizer-type "HuggingFaceTokenizer" --split '99,1,0'
