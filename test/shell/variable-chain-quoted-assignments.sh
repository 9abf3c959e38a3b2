BASE_TP='2'
TP_SIZE=$BASE_TP
NAME="gpt-small"
torchrun pretrain_gpt.py --tensor-model-parallel-size $TP_SIZE --wandb-exp-name $NAME --tokenizer-model 'meta/llama 3'
