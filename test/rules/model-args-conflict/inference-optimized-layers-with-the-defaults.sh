#: name: model-args-conflict: the inference-optimized layers refuse the default LayerNorm and linear biases (transformer_config.py@core_v0.16.0:1980-1983)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --transformer-impl inference_optimized
#   ^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: `--transformer-impl inference_optimized` with linear biases
#   ^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: `--transformer-impl inference_optimized` with the default La
