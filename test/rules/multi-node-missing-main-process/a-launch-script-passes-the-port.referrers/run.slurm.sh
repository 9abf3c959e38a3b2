#!/bin/bash
#SBATCH --nodes=2
accelerate launch --config_file configs/multi_node.yaml \
    --main_process_ip $MASTER_ADDR --main_process_port 6000 --machine_rank $SLURM_NODEID \
    train.py --lr 1e-4
