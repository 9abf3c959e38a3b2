#: name: model-args-conflict: the fused TP communication needs the inference-optimized layers (transformer_config.py@core_v0.16.0:1993-1997); the NVLS switch beside it is inference-config-invalid's check (0.17 on)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --inference-fuse-tp-communication --inference-disable-triton-nvls-kernels
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: `--inference-fuse-tp-communication` with the default Transfo
#                                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[inference-config-invalid]: `--inference-disable-triton-nvls-kernels` with the default Transformer Engine layers
