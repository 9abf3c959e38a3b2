#: name: cuda-graph-config-invalid: from 0.12 Megatron Core refuses the two old switches together when it builds the layers (transformer_layer.py@core_v0.12.0:254-257), before the argument check of 0.14
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --enable-cuda-graph --external-cuda-graph
#                       ^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: cannot be enabled at the same time"). Keep one.
