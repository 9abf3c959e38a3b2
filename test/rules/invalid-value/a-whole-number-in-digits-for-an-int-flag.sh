#: name: invalid-value: the same whole numbers in digits (or with underscores, which Python's int() takes) pass
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 100 --eval-interval 50 \
    --rotary-base 1000000 --decoder-num-layers 2 --make-vocab-size-divisible-by 1_28
