#: name: cuda-graph-config-invalid: the old full_iteration_inference word takes only none or local (cuda_graph_config.py@core_v0.18.0:117-121)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl transformer_engine --cuda-graph-modules full_iteration_inference \
#                                        ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: cannot be combined with cuda_graph_impl='transformer_engine'
#                                        ^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: it stops with a `--cuda-graph-impl` other than `none` or `local`, with an `--inference-cuda-graph-scope` other than `block`
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
