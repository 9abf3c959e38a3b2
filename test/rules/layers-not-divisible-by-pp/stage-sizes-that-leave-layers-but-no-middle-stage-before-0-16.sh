#: name: layers-not-divisible-by-pp: before Megatron Core 0.16 there is no "Mismatch" check, and the config builds (transformer_config.py@core_v0.15.0:1100-1150)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --pipeline-model-parallel-size 2 --decoder-first-pipeline-num-layers 3 \
    --decoder-last-pipeline-num-layers 3
