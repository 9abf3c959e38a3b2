#: name: logging-config-invalid: from core_v0.16.0 --wandb-exp-name defaults to None (training_config.py@core_v0.16.0:297), which the test at training/global_vars.py@core_v0.16.0:195 lets through: nothing to report
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --save /ckpt --save-interval 1000 \
    --wandb-project gpt
