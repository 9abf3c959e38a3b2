TP=4
ARGS=(
  --tensor-model-parallel-size $TP
  --bf16
)
CMD="python /opt/megatron/pretrain_gpt.py ${ARGS[@]}"
sbatch <<EOF
#!/bin/bash
#SBATCH --nodes=2
srun --ntasks-per-node=8 bash -c "${CMD}"
EOF
