#: name: cuda-graph-config-invalid: FP8 block-level inference graphs on the inference-optimized layers need --fp8-recipe mxfp8 (training/arguments.py@d98e8a6:1244-1245)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --inference-cuda-graph-scope block --fp8-format e4m3 --transformer-impl inference_optimized --normalization RMSNorm --disable-bias-linear \
#                           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
