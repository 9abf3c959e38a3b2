#: name: cuda-graph-config-invalid: from core_v0.18.0 the old full_iteration_inference word does nothing without a CUDA graph implementation (cuda_graph_config.py@core_v0.18.0:129-135), so FP8 is not refused for it
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-scope full_iteration_inference --fp8-format e4m3 \
#   ^^^^^^^^^^^^^^^^^^ information[deprecated-key]: --cuda-graph-scope` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
