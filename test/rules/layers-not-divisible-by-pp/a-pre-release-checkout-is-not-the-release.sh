#: name: layers-not-divisible-by-pp: the Megatron a script runs is a pre-release of the release that added the check (0.10.0rc0 by its package_info.py): whether that snapshot has the check yet is not known from its version, so nothing is said
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
