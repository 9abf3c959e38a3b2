#: name: cuda-graph-config-invalid: a local CUDA graph count of 0 stops Megatron-LM (training/arguments.py@d98e8a6:1247-1250, from core_v0.17.0)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --inference-dynamic-batching-num-cuda-graphs 0 \
#                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
