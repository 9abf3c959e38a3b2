#: name: checkpoint-config-invalid: --save without --save-interval stops at startup at every release (megatron/arguments.py@core_v0.4.0:283-284, training/arguments.py@d98e8a6:1361-1362)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 \
    --save /ckpt
#   ^^^^^^ error[checkpoint-config-invalid]: `--save` without `--save-interval`: Mega
