#: name: deprecated-key: from Megatron Core 0.9.0 the help of --pipeline-model-parallel-split-rank says "Deprecated; use --encoder-pipeline-model-parallel-size instead" (megatron/training/arguments.py@core_v0.9.0:1514) while validate_args still reads it, until 0.14.0 removes it: a note from 0.9.0
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_t5.py --pipeline-model-parallel-size 4 --pipeline-model-parallel-split-rank 2 \
#                                                                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: help calls it deprecated
    --num-layers 8 --hidden-size 512 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8
