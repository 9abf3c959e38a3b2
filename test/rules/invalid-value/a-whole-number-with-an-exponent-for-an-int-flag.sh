#: name: invalid-value: --rotary-base is `type=int` at every release (megatron/training/arguments.py@core_v0.8.0, @core_v0.15.0; int annotation from 0.16): argparse refuses a whole number written with an exponent or a fraction ("invalid int value")
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 100 --eval-interval 50 \
    --rotary-base 1e6 --decoder-num-layers 2.0
#                 ^^^ error[invalid-value]: refuses `1e6`
#                                          ^^^ error[invalid-value]: refuses `2.0`
