torchrun pretrain_gpt.py --lr 1 --name "unterminated
--bf16
