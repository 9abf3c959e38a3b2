#: name: recompute-config-invalid: before 0.12 Megatron Core does not check --moe-layer-recompute against full recomputation (transformer_config.py@core_v0.11.0 has no such check)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 4 --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 --moe-layer-recompute
