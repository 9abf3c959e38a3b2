#: name: fp8-config-invalid: the custom FP4 recipe needs a quantizer factory (transformer_config.py@core_v0.16.0:1037-1044, @d98e8a6:1584-1591)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fp4-format e2m1 --fp4-recipe custom
#                     ^^^^^^^^^^^^ error[fp8-config-invalid]: fp4_quantizer_factory must be provided
