#: name: cuda-graph-config-invalid: at core_v0.14.0 a full-iteration graph for dynamic-batching inference has no FP8 check (training/arguments.py@core_v0.14.0:669-671 checks only the NaN check)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --enable-cuda-graph --cuda-graph-scope full_iteration --inference-dynamic-batching --fp8-format e4m3 --no-check-for-nan-in-loss-and-grad \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
