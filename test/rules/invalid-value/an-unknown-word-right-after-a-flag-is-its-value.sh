#: name: invalid-value: a word whose text is unknown right after a flag that needs a value is that value (unknown: nothing to check)
#: path: /project/examples/train.sh
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --hidden-dropout $DROPOUT \
    --rotary-base 1000000 500000 \
#                 ^^^^^^^^^^^^^^ error[invalid-value]: must be an integer, not a list
    --bf16
