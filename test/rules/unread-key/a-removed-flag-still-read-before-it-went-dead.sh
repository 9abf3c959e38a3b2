#: name: unread-key: 0.16.1 still reads --inference-dynamic-batching-cuda-graph-max-tokens (nothing reads it only from core_v0.17.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.1"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --inference-dynamic-batching-cuda-graph-max-tokens 4096
