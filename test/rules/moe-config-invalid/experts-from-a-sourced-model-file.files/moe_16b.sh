# The model: layers, width, and the experts.
MODEL=(
  --num-layers 24
  --hidden-size 2048
  --num-attention-heads 16
  --seq-length 4096
  --max-position-embeddings 4096
  --num-experts 64
  --moe-router-topk 6
)
