#: name: moe-config-invalid: from 0.16 the argument checks no longer ask grouped GEMM for bf16 (training/arguments.py@core_v0.16.0:852-854)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --num-experts 8 --moe-grouped-gemm --disable-bias-linear
