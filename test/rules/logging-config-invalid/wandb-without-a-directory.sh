#: name: logging-config-invalid: W&B files default to <save>/wandb, and with neither --wandb-save-dir nor --save os.path.join(None, "wandb") raises a TypeError (training/global_vars.py@core_v0.16.0:199-203, @d98e8a6:263-267)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --wandb-exp-name gpt-run1 \
    --wandb-project gpt
#   ^^^^^^^^^^^^^^^ error[logging-config-invalid]: without `--wandb-save-dir` or `--save`
