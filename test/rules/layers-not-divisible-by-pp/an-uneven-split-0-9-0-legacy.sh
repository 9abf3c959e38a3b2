#: name: layers-not-divisible-by-pp: --use-legacy-models at 0.8-0.9 builds the legacy model, whose assert stops an uneven split (megatron/legacy/model/transformer.py@core_v0.9.0:1332-1333)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 20 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 --use-legacy-models \
    --pipeline-model-parallel-size 8
#                                  ^ error[layers-not-divisible-by-pp]: Megatron stops at startup unless an uneven split is given
