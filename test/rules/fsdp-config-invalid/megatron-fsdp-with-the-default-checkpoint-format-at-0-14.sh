#: name: fsdp-config-invalid: Megatron-FSDP with the default checkpoint format is refused from core_v0.14.0, where the flag appeared (training/arguments.py@core_v0.14.0:638-639, "Megatron FSDP only supports fsdp_dtensor checkpoint format")
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp \
#   ^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
