#: name: layers-not-divisible-by-pp: before 0.8.0 the legacy model is the default (pretrain_gpt.py@core_v0.7.0:61 builds it unless --use-mcore-models), and it asserts that PP divides the layers (megatron/model/transformer.py@core_v0.7.0): an uneven split stops it
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 20 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --pipeline-model-parallel-size 8 --mock-data
#                                  ^ error[layers-not-divisible-by-pp]: Megatron stops at startup unless an uneven split is given
