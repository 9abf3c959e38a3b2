#: name: cuda-graph-config-invalid: the old full_iteration word cannot replace transformer_engine (cuda_graph_config.py@core_v0.19.0:107-111, the same @core_v0.18.0 and @d98e8a6)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl transformer_engine --cuda-graph-modules full_iteration --no-check-for-nan-in-loss-and-grad \
#                                        ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: cannot be combined with cuda_graph_impl='transformer_engine'
#                                        ^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: `full_iteration` for `--cuda-graph-modules` is deprecated
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
