RECIPE=llama3_8b
export RECIPE
CMD='cd /workspace && python scripts/run_recipe.py --recipe "$RECIPE" --tensor-model-parallel-size 2 --node-rank "$SLURM_PROCID"'
srun --nodes 2 bash -c "$CMD"
