#: name: invalid-value: at Megatron Core 0.10.0 --position-embedding-type takes learned_absolute, rope and none (megatron/training/arguments.py@core_v0.10.0:952); relative, mrope and yarn came later (x-enum-since) and are not listed
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[memory-exceeds-hbm]
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --position-embedding-type rotery \
#                                                                              ^^^^^^ error[invalid-value]: must be one of `learned_absolute`, `rope`, `none`, not `rotery`
    --micro-batch-size 1 --global-batch-size 64 --train-iters 1000
