#: name: fsdp-config-invalid: at core_v0.18.0 Megatron-FSDP does not refuse single grouped MoE weights
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --num-experts 8 --moe-grouped-gemm --moe-single-grouped-weight \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --disable-bias-linear --fp8-format e4m3 --fp8-recipe mxfp8
