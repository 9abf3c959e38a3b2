#: name: launch script for an entry point Shardwise does not know: its flags are warnings that say so
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 tools/run_my_model.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --tensor-model-parallel-size 2 \
#                                ^ information[tp-without-sequence-parallel]
    --pipeline-model-parallel-size 1 \
    --micro-batch-size 1 \
    --genfile out.txt \
#   ^^^^^^^^^ warning[unknown-key]: unless `run_my_model.py` defines it
    --num-samples 4
#   ^^^^^^^^^^^^^ warning[unknown-key]
