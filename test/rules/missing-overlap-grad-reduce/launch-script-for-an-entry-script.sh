#: name: launch script for an entry script the host can read: the flags it defines are accepted, the others still warned about
#: path: examples/evaluate.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 tasks/main.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --task RACE \
    --epochs 3 \
    --num-layers 24 \
    --tensor-model-parallel-size 1 \
    --micro-batch-size 4 \
    --no-such-flag 1
#   ^^^^^^^^^^^^^^ warning[unknown-key]: unless `main.py` defines it
