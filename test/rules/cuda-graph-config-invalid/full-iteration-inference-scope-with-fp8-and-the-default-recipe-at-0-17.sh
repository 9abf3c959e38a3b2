#: name: cuda-graph-config-invalid: at core_v0.17.0 FP8 full-iteration inference graphs take only MXFP8 (training/arguments.py@core_v0.17.0:1010-1011)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full_iteration_inference --fp8-format e4m3 --transformer-impl inference_optimized --normalization RMSNorm --disable-bias-linear \
#                           ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: Only --fp8-recipe=mxfp8 is supported with full_iteration_inference CUDA graphs
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
