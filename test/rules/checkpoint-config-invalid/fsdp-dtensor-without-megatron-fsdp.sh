#: name: checkpoint-config-invalid: --ckpt-format fsdp_dtensor is only accepted with Megatron FSDP (training/arguments.py@core_v0.14.0:977-978, @d98e8a6:1675-1676)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt --save-interval 100 --ckpt-format fsdp_dtensor
#                                    ^^^^^^^^^^^^^ error[checkpoint-config-invalid]: --ckpt-format fsdp_dtensor is only tested with Meg
