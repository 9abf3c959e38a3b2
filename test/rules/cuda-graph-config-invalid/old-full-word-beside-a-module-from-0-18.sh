#: name: cuda-graph-config-invalid: `full` must be the only value (cuda_graph_config.py@core_v0.18.0:39-41, training/arguments.py@core_v0.18.0:273-282,643)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-modules full attn \
#                           ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: full scope cannot be used with other scopes
#                                                ^^^^ information[deprecated-key]: `full` for `--cuda-graph-modules` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
