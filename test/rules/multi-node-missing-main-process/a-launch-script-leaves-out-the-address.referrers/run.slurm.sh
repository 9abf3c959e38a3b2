#!/bin/bash
#SBATCH --nodes=2
accelerate launch --config_file configs/multi_node.yaml \
    --machine_rank $SLURM_NODEID \
    train.py --lr 1e-4
