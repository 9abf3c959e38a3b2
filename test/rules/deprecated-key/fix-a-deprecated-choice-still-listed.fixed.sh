#!/bin/bash
torchrun train_rl.py --model-provider hybrid --num-layers 2 --hidden-size 64 --num-attention-heads 4
