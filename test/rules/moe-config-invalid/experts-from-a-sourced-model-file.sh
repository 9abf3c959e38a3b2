#: name: moe-config-invalid: the experts come from a model file the script sources (its own folder, found through ${BASH_SOURCE[0]}): nothing to say
#: path: /project/recipes/train_moe.sh
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
HERE="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" &>/dev/null && pwd)"
source "${HERE}/moe_16b.sh"
PARALLEL=(
  --tensor-model-parallel-size 1
  --expert-model-parallel-size 8
  --micro-batch-size 1
  --global-batch-size 64
)
torchrun --nproc_per_node 8 pretrain_gpt.py "${MODEL[@]}" "${PARALLEL[@]}" --bf16
