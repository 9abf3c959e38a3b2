#: name: checkpoint-config-invalid: --replication needs local non-persistent checkpoints (training/arguments.py@core_v0.11.0:806-808, @d98e8a6:1896-1898)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt --save-interval 100 --replication --replication-jump 4
#                                    ^^^^^^^^^^^^^ error[checkpoint-config-invalid]: --replication requires args.non_persistent_ckpt_ty
