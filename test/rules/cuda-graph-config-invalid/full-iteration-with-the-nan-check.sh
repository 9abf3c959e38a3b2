#: name: cuda-graph-config-invalid: a full-iteration graph with the NaN check on (its default) stops Megatron-LM (training/arguments.py@d98e8a6:1235-1237, from core_v0.18.0)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --cuda-graph-impl full_iteration \
#   ^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
