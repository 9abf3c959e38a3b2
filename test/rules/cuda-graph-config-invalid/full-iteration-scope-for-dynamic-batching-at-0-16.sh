#: name: cuda-graph-config-invalid: at core_v0.16.0 dynamic-batching inference with a full-iteration graph keeps the NaN check (training/arguments.py@core_v0.16.0:725-728)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full_iteration --inference-dynamic-batching \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
