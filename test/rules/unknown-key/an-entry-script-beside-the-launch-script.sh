#: name: an entry script beside the launch script (${SCRIPT_DIR}/export.py) is read too
#: path: modelopt/export.sh
#!/bin/bash
SCRIPT_DIR="$(dirname "$(readlink -f "$0")")"
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 ${SCRIPT_DIR}/export.py \
    --export-dir /out \
    --pretrained-model-name meta-llama/Llama-3.1-8B \
    --num-layers 32 \
    --tensor-model-parallel-size 1 \
    --micro-batch-size 1
