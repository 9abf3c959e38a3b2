TP=${TP:-8}
PP=${PP:-1}
GBS=$(( 64 * ${DP:-4} ))
MBS=2
ACC=$((GBS / MBS))
NODES=$SLURM_NNODES
HOST=$(hostname)
python -m torch.distributed.run --nproc_per_node 8 --nnodes $NODES --node_rank $SLURM_NODEID \
  --master_addr $HOST pretrain_gpt.py --tensor-model-parallel-size ${TP} --pipeline-model-parallel-size $PP \
  --global-batch-size $GBS --micro-batch-size "$MBS" --train-iters $ACC --seed $RANDOM --context-parallel-size $CP
