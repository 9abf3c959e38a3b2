#: name: deprecated-key: Megatron Core 0.8.0's help of --pipeline-model-parallel-split-rank does not call it deprecated yet (megatron/training/arguments.py@core_v0.8.0): nothing to say
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_t5.py --pipeline-model-parallel-size 4 --pipeline-model-parallel-split-rank 2 \
    --num-layers 8 --hidden-size 512 --num-attention-heads 8 --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8
