#: name: layers-not-divisible-by-pp: in Megatron Core 0.9 each middle stage asserts that the layers left by the first and last stage sizes divide over the middle stages while it builds its layers (transformer_block.py@core_v0.9.0:62-79): 30 layers, PP 4, first 4 and last 3 leave 23 for 2 stages
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 30 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 4 --decoder-last-pipeline-num-layers 3
#                                                                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[layers-not-divisible-by-pp]: when the middle stages build their layers
