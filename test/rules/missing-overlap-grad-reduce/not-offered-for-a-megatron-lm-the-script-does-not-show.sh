#: name: missing-overlap-grad-reduce: a script that runs a Megatron-LM it does not show (a path it is given) may run a release without `--overlap-grad-reduce` (added to Megatron-LM in 2023), so the switch is not offered; the same DP without it is advised when the release is the checked one
#!/bin/bash
# shardwise-disable tp-larger-than-needed -- not what this case is about
MEGATRON=$1
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 $MEGATRON/pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: which release it is are not known
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --tensor-model-parallel-size 2 --sequence-parallel \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 16 --bf16
