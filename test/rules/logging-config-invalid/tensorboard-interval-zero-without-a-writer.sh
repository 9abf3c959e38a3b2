#: name: logging-config-invalid: without --tensorboard-dir there is no writer and the interval is not used from 0.15 on, even with --log-timers-to-tensorboard
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --log-timers-to-tensorboard \
    --tensorboard-log-interval 0
