#: name: cuda-graph-config-invalid: at core_v0.15.0 and 0.16.0 a local full-iteration graph for dynamic-batching inference refuses FP8 (training/arguments.py@core_v0.15.0:749-755, @core_v0.16.0:725-731)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full_iteration --inference-dynamic-batching --fp8-format e4m3 \
#                           ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: fp8 is not supported with inference dynamic batching and full_iteration CUDA graph
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
