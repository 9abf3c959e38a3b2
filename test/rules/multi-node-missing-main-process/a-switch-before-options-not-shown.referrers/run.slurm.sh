#!/bin/bash
#SBATCH --nodes=2
accelerate launch --config_file configs/multi_node.yaml \
    --multi_gpu $EXTRA_ARGS \
    train.py --lr 1e-4
