#: name: checkpoint-config-invalid: before Megatron Core 0.9 the legacy format is saved unless --use-dist-ckpt is given, and it is not saved asynchronously (training/checkpointing.py@core_v0.8.0:323-325)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 100 --async-save
#                                    ^^^^^^^^^^^^ error[checkpoint-config-invalid]: Async checkpoint save not implemented for legacy checkpoints
