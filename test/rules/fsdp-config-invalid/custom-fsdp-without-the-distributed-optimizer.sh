#: name: fsdp-config-invalid: before 0.14 Megatron-FSDP is --use-custom-fsdp and runs only with the distributed optimizer (training/arguments.py@core_v0.12.0:554-556, @core_v0.13.0:646-648)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-custom-fsdp \
#   ^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]: --use-custom-fsdp only supported with distributed optimizer
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
