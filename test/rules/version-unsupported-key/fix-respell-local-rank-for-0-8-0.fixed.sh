#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --local_rank 0 --num-layers 2 --hidden-size 64 --num-attention-heads 4
