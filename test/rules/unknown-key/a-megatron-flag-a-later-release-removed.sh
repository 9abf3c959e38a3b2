#: name: unknown-key: `--one-logger-entity` is a flag of Megatron-LM 0.5.0-0.7.0 (training/arguments.py@core_v0.7.0:869), removed in 0.8.0, so 0.7.0 takes it
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
# shardwise-disable missing-overlap-grad-reduce tp-larger-than-needed -- not what this case is about
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 2 --num-layers 4 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --sequence-parallel \
    --one-logger-entity my_team --mock-data
