#: name: checkpoint-config-invalid: a save interval of 0 stops at startup from 0.14 (training/arguments.py@core_v0.14.0:777-779, @d98e8a6:1361-1363)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt --save-interval 0
#                ^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]: `--save-interval 0` with `--save`: the i
