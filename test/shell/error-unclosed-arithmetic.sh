N=$(( 1 + 2
torchrun x.py --lr 1
