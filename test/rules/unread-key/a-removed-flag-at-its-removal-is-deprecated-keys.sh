#: name: unread-key: from 0.18.0, which removes --inference-dynamic-batching-cuda-graph-max-tokens (absent from megatron/training/arguments.py@core_v0.18.0), deprecated-key reports it and unread-key says nothing
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --inference-dynamic-batching-cuda-graph-max-tokens 4096
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[deprecated-key]
