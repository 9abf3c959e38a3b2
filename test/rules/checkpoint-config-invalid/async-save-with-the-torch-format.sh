#: name: checkpoint-config-invalid: validate_args turns async save off only for distributed formats, so with --ckpt-format torch there is no warning (arguments.py@core_v0.16.0:1138); async save stays on and the first save stops instead (checkpointing.py@core_v0.16.0)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 \
    --train-iters 1000 --save /ckpt --save-interval 100 --async-save --ckpt-format torch --eval-interval 1000
#                                                       ^^^^^^^^^^^^ error[checkpoint-config-invalid]: not implemented for legacy checkpoints
