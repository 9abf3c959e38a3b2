#: name: model-args-conflict: a no-RoPE pattern is refused with flash decoding (transformer_config.py@core_v0.13.0:1231, @d98e8a6:3138-3139)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --position-embedding-type rope --no-rope-freq 2 --flash-decode
#                                  ^^^^^^^^^^^^^^ error[model-args-conflict]: flash_decode cannot be used with no_rope
