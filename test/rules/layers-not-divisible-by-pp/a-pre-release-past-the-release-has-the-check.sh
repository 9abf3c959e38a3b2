#: name: layers-not-divisible-by-pp: a pre-release of a later release (0.11.0rc0 by its package_info.py) is past every 0.10 release, which has the check: an error
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=/project/vendor/Megatron-LM:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 20 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --pipeline-model-parallel-size 8
#                                  ^ error[layers-not-divisible-by-pp]
