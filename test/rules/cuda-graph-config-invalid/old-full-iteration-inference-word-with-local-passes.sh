#: name: cuda-graph-config-invalid: the old full_iteration_inference word with local graphs and no scope becomes the block scope (cuda_graph_config.py@core_v0.18.0:117-126)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-modules full_iteration_inference \
#                           ^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: `full_iteration_inference` for `--cuda-graph-modules` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
