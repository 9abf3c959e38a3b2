#: name: cuda-graph-config-invalid: from core_v0.18.0 the old full_iteration_inference word with MXFP8 in the inference-optimized layers passes the block-scope checks
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full_iteration_inference --fp8-format e4m3 --fp8-recipe mxfp8 --transformer-impl inference_optimized --normalization RMSNorm --disable-bias-linear \
#                           ^^^^^^^^^^^^^^^^^^ information[deprecated-key]: --cuda-graph-scope` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
