#: name: fsdp-config-invalid: from core_v0.15.0 DDP gives the meta-device model uninitialised memory (torch.empty_like, utils.py@core_v0.15.0:630-649) and no checkpoint is loaded
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 --train-iters 100 --eval-interval 50 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce  --init-model-with-meta-device
#                                                                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[fsdp-config-invalid]: uninitialised GPU memory
