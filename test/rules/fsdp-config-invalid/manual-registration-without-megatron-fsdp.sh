#: name: fsdp-config-invalid: --fsdp-manual-registration without Megatron-FSDP or --nccl-ub stops Megatron-LM (training/arguments.py@d98e8a6:1189-1191; Megatron-FSDP from core_v0.16.0, --nccl-ub from core_v0.18.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --fsdp-manual-registration \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
