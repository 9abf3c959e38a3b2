#: name: cuda-graph-config-invalid: the old switch turns into transformer_engine first (training/arguments.py@core_v0.18.0:609-629), then the old word is refused beside it (cuda_graph_config.py@core_v0.18.0:107-111)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --external-cuda-graph --cuda-graph-modules full_iteration attn --no-check-for-nan-in-loss-and-grad \
#   ^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: `--external-cuda-graph` is deprecated
#                         ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: the old spelling of `--cuda-graph-impl transformer_engine`
#                                              ^^^^^^^^^^^^^^ information[deprecated-key]: `full_iteration` for `--cuda-graph-modules` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
