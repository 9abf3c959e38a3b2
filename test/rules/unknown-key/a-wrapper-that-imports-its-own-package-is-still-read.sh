#: name: unknown-key: a program that imports neither Megatron nor another framework (a wrapper whose own package may call Megatron's parser) gives no verdict: the script is read by its flags
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
