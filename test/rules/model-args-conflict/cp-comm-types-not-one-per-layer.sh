#: name: model-args-conflict: three --cp-comm-type values for two layers stop when the model config is built (transformer_config.py@core_v0.10.0:577-581)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --context-parallel-size 2 \
    --cp-comm-type p2p p2p a2a
#   ^^^^^^^^^^^^^^ error[model-args-conflict]: communication types, and the model has 2 layers
