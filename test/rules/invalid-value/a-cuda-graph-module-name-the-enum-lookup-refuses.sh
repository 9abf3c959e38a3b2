#: name: invalid-value: --cuda-graph-modules takes each word through a lookup in CudaGraphModule (arguments.py@core_v0.18.0:266-270, enums.py@core_v0.18.0:61-73): a name the enum lacks stops at parse time; the old scope full_iteration is passed through and converted (cuda_graph_config.py@core_v0.18.0:10-13)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 \
    --cuda-graph-impl local --cuda-graph-modules attn bogus full_iteration
#                                                     ^^^^^ error[invalid-value]: not `bogus`
#                                                           ^^^^^^^^^^^^^^ information[deprecated-key]: --cuda-graph-impl full_iteration
