#: name: cuda-graph-config-invalid: from core_v0.18.0 the old full_iteration word becomes --cuda-graph-impl full_iteration (training/arguments.py@core_v0.18.0:631-644, cuda_graph_config.py@core_v0.18.0:10-13), which the NaN check refuses (@core_v0.18.0:1186-1188)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full_iteration \
#                           ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: should be set with --cuda-graph-impl=full_iteration for training
#                           ^^^^^^^^^^^^^^^^^^ information[deprecated-key]: --cuda-graph-scope` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
