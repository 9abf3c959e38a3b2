NNODES=2
srun --nodes=$NNODES --ntasks-per-node=1 bash -c "torchrun --nproc_per_node 8 --nnodes $NNODES --node_rank \$SLURM_PROCID pretrain_gpt.py --tensor-model-parallel-size 4 --micro-batch-size 2"
