#: name: unknown-key: the same command running a program that imports Megatron is a Megatron-LM launch script: here one of a Megatron-LM from before Megatron Core, by its `--batch-size`
#: path: scripts/finetune.sh
#!/bin/bash
BASE_PATH=/home/me/project
torchrun --nproc_per_node 8 ${BASE_PATH}/examples/t5/finetune_t5.py \
^^^^^^^^ information[fork-flags-not-checked]: `--batch-size`
    --model-config t5-base \
    --batch-size 32 \
    --train-iters 2000 \
    --save-iters 500 \
    --max-encoder-length 512 \
    --lr 0.001 \
    --weight-decay 0.01 \
    --clip-grad 1.0 \
    --loss-scale 1048576 \
    --no-such-flag 1
