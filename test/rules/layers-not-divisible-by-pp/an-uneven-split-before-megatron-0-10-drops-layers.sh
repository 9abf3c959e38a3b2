#: name: layers-not-divisible-by-pp: before Megatron-LM 0.10.0 an uneven split without virtual stages is not refused: each stage builds layers // PP (transformer_block.py@core_v0.9.0) and the rest are never built; 0.10.0 added the check to validate_args (arguments.py@core_v0.10.0)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 20 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --pipeline-model-parallel-size 8
#                                  ^ warning[layers-not-divisible-by-pp]: Megatron-LM before 0.10.0 builds 2 per stage, 16 of 20, without a word, and from 0.10.0 it stops at startup. Use a PP that divides 20 (2, 4, 5, 10), or give the first or last stage fewer layers (`--decoder-first-pipeline-num-layers`, `--decoder-last-pipeline-num-layers`, from Megatron Core 0.9).
