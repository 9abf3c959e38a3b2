#: name: fsdp-config-invalid: meta-device initialisation under no_shard stops Megatron-LM (training/arguments.py@d98e8a6:1184-1188, from core_v0.18.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --data-parallel-sharding-strategy no_shard --init-model-with-meta-device \
#                                                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
