#: name: cuda-graph-config-invalid: before core_v0.18.0 the full-iteration graph is a scope of the local implementation, refused the same with the NaN check on (training/arguments.py@core_v0.17.0:1001-1003)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl local --cuda-graph-scope full_iteration \
#                           ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
