#: name: world-size-mismatch: from Megatron Core 0.19.0 the model size is TP × PP × CP × (weight shards / TP) (megatron/training/arguments.py@core_v0.19.0:411-431): 16 weight shards at TP 4 × PP 2 need 32 GPUs, not 16
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \
^^^^^^^^ error[world-size-mismatch]: × 4 (16 weight shards / TP 4, ranks of their own from Megatron Core 0.19.0) = 32
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 4 --pipeline-model-parallel-size 2 --tensor-parallel-num-weight-shards 16 \
    --micro-batch-size 1 --global-batch-size 64 --bf16
