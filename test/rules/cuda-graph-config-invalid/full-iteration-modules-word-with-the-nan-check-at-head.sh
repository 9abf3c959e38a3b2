#: name: cuda-graph-config-invalid: after core_v0.19.0 the old full_iteration word of --cuda-graph-modules still becomes the full-iteration implementation, which the NaN check refuses (training/arguments.py@d98e8a6:1235-1237)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-modules full_iteration \
#   ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: should be set with --cuda-graph-impl=full_iteration for training
#   ^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: `full_iteration` for `--cuda-graph-modules` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
