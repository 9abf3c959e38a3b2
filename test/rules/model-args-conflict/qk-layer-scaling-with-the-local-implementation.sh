#: name: model-args-conflict: with --transformer-impl local Megatron Core's own attention scales by itself, and no variable is read (extensions/transformer_engine.py is not used)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --transformer-impl local --apply-query-key-layer-scaling
