#: name: logging-config-invalid: --wandb-project with --wandb-exp-name left at its default, an empty string, before 0.16 (arguments.py@core_v0.15.0:1864; training/global_vars.py@core_v0.15.0:189-191 raises "Please specify the wandb experiment name!")
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 1000 \
    --wandb-project gpt
#   ^^^^^^^^^^^^^^^ error[logging-config-invalid]: without an experiment name
