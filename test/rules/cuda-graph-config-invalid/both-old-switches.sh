#: name: cuda-graph-config-invalid: both old switches are refused from 0.14 (arguments.py@core_v0.14.0:1101-1104)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --enable-cuda-graph --external-cuda-graph
#                       ^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: cannot be enabled at the same time
