#: name: missing-cuda-device-max-connections: the script runs a Megatron-LM it does not show (a path given when it runs), so its release is unknown and may predate the check (added in 2022, before every release the histories cover): no finding rests on the release, while a check that holds in every release still reports
#!/bin/bash
# shardwise-disable tp-larger-than-needed -- not what this case is about
MEGATRON=$1
torchrun --nproc_per_node 8 $MEGATRON/pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: which release it is are not known
    --num-layers 24 --hidden-size 2048 --num-attention-heads 32 \
    --tensor-model-parallel-size 4 \
    --micro-batch-size 1 --global-batch-size 16 --seq-length 1024 --max-position-embeddings 2048 \
#                                               ^^^^^^^^^^^^ warning[duplicate-key]: passed twice
    --seq-length 2048 \
    --bf16
