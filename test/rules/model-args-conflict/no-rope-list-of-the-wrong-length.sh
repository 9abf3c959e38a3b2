#: name: model-args-conflict: a no-RoPE list pattern must give one entry per layer (transformer_config.py@core_v0.13.0:1243-1247, @d98e8a6:3149-3153)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --position-embedding-type rope --no-rope-freq [0,1,0]
#                                  ^^^^^^^^^^^^^^ error[model-args-conflict]: Length of no_rope list (3) must match the number of layers (4)
