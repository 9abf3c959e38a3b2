#: name: model-args-conflict: Megatron Core refuses an integer --no-rope-freq that does not divide the layers (transformer_config.py@d98e8a6:3140-3144, from core_v0.13.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --position-embedding-type rope --no-rope-freq 3
#                                  ^^^^^^^^^^^^^^ error[model-args-conflict]: no_rope_freq=3 should be divisible by num_layers=4
