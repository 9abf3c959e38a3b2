#: name: invalid-value: `--save-interval` ≤ 0 with `--save` is refused only from 0.14 (training/arguments.py@core_v0.14.0:779 `assert args.save_interval > 0`); at 0.13 0 turns periodic saving off, so it is a warning
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 0
#                                ^ warning[invalid-value]: before 0.14
