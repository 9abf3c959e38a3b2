#: name: layers-not-divisible-by-pp: with --use-mcore-models before 0.8.0 Megatron Core's block builds layers // PP per stage and drops the rest (transformer_block.py@core_v0.7.0)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 20 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 --use-mcore-models \
    --pipeline-model-parallel-size 8 --mock-data
#                                  ^ warning[layers-not-divisible-by-pp]: Megatron-LM before 0.10.0 builds 2 per stage
