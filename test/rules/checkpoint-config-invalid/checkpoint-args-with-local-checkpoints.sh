#: name: checkpoint-config-invalid: --use-checkpoint-args with local non-persistent checkpoints (initialize.py@core_v0.11.0:64-65, arguments.py@d98e8a6:95)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-checkpoint-args --load /ckpt --non-persistent-ckpt-type local --non-persistent-local-ckpt-dir /local
#   ^^^^^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: not supported with --non_persistent_ckpt_type=local
