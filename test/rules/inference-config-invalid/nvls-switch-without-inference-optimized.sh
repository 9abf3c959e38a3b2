#: name: inference-config-invalid: --inference-disable-triton-nvls-kernels with the default Transformer Engine layers (transformer_config.py@core_v0.17.0:2231-2235, @d98e8a6:3188-3192)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --inference-disable-triton-nvls-kernels
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[inference-config-invalid]: only supported for inference_optimized
