#: name: fp8-config-invalid: FP4 parameters need FP4 training (transformer_config.py@core_v0.15.0:799-800, @d98e8a6:1578-1579)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fp4-param-gather
#   ^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: fp4_param must be used together with fp4 mode
