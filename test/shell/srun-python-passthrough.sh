#!/bin/bash
#SBATCH --nodes=4
srun -N 4 --ntasks-per-node=8 --gpus-per-node 8 --exclusive python -u pretrain_gpt.py --tensor-model-parallel-size 8 --bf16 "$@"
