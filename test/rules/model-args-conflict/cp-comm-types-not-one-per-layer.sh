#: name: model-args-conflict: more than one --cp-comm-type is a per-layer list that must match the layers with CP above 1 (transformer_config.py@core_v0.12.0:1033-1038)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 2 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --context-parallel-size 2 --cp-comm-type p2p a2a a2a
#                             ^^^^^^^^^^^^^^ error[model-args-conflict]: `--cp-comm-type` gives 3 communication types, and the model
