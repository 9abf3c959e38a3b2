FLAG=--bf16
torchrun x.py $FLAG
