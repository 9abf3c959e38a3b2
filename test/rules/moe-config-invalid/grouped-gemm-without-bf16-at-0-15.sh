#: name: moe-config-invalid: before 0.16 grouped GEMM needs bf16 (megatron/arguments.py@core_v0.5.0:295-296, training/arguments.py@core_v0.15.0:876-877)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --num-experts 8 --moe-grouped-gemm
#                   ^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Currently GroupedGEMM for MoE only supports bf16 dtype
