#: name: launch script for Megatron-DeepSpeed: the fork's flags (and flags upstream removed) are not judged; the layout still is
#: path: train.sh
#!/bin/bash
deepspeed --num_gpus 8 pretrain_gpt.py \
^^^^^^^^^ information[fork-flags-not-checked]: Megatron-DeepSpeed
    --tensor-model-parallel-size 4 \
#                                ^ error[heads-not-divisible-by-tp]
    --num-layers 24 \
    --hidden-size 2048 \
    --num-attention-heads 30 \
    --seq-length 2048 \
    --max-position-embeddings 2048 \
    --checkpoint-activations \
    --data-impl mmap \
    --deepspeed \
    --deepspeed_config ds_config.json \
    --zero-stage 1
