#: name: fsdp-config-invalid: single grouped MoE weights under Megatron-FSDP stop Megatron-LM (training/arguments.py@d98e8a6:1138-1148, from core_v0.19.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --num-experts 8 --moe-grouped-gemm --moe-single-grouped-weight \
#                                                                                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --disable-bias-linear --swiglu --use-transformer-engine-op-fuser
