#: name: model-args-conflict: relative position embeddings need Transformer Engine attention from 0.11 (training/arguments.py@core_v0.11.0:709-712, @d98e8a6:1637-1640)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --position-embedding-type relative --transformer-impl local
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Local transformer implementation currently does no
