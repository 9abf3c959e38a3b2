DDP=(
  --use-distributed-optimizer  # shard the optimizer
  # --overlap-param-gather
  --overlap-grad-reduce
)
TRAIN=(
  --micro-batch-size 1 \
  --global-batch-size 64
)
TRAIN+=("${DDP[@]}")
TRAIN+=(--train-iters 100)
ONE=(--log-interval 10)
torchrun pretrain_gpt.py "${TRAIN[@]}" $ONE
