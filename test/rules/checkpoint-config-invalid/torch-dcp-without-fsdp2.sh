#: name: checkpoint-config-invalid: --ckpt-format torch_dcp is only accepted with PyTorch FSDP2 (training/arguments.py@core_v0.12.0:862-863, @d98e8a6:1667-1668)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt --save-interval 100 --ckpt-format torch_dcp
#                                    ^^^^^^^^^^^^^ error[checkpoint-config-invalid]: --ckpt-format torch_dcp is only tested with FSDP.
