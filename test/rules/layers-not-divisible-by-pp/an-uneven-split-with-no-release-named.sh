#: name: layers-not-divisible-by-pp: with no release named, whether an uneven split stops (0.10.0 on) or drops layers (before) rests on the release assumed: a warning that names the assumption
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 20 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --pipeline-model-parallel-size 8
#                                  ^ warning[layers-not-divisible-by-pp]: This assumes the newest Megatron Core release
