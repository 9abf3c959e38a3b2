torchrun a.py --lr 1
torchrun b.py --lr 2
echo finished
