torchrun x.py --fp8-format=hy
