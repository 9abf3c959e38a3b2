#: name: fsdp-config-invalid: --fsdp-manual-registration needs Megatron-FSDP and --use-nccl-ub from core_v0.16.0, where it appeared (training/arguments.py@core_v0.16.0:693-695, @d98e8a6:1189-1191)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --fsdp-manual-registration \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
