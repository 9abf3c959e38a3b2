#!/bin/bash
: ${GBS=256}
torchrun --nproc_per_node 8 megatron_gpt_pretraining.py \
    --config-path=conf \
    --config-name=megatron_gpt_config \
    trainer.num_nodes=$NNODES \
    model.global_batch_size=$GBS \
    model.micro_batch_size=1
