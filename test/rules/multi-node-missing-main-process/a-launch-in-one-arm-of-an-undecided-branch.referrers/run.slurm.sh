#!/bin/bash
#SBATCH --nodes=2
if [ "$1" = "cluster" ]; then
  accelerate launch --config_file configs/multi_node.yaml --main_process_ip $MASTER_ADDR train.py --lr 1e-4
else
  accelerate launch --config_file configs/multi_node.yaml train.py --lr 1e-4
fi
