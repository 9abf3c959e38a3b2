#: name: logging-config-invalid: before 0.15 the timers are written on every rank under log_timers_to_tensorboard and iteration % interval (training/training.py@core_v0.14.0:1411)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --log-timers-to-tensorboard \
    --tensorboard-log-interval 0
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[logging-config-invalid]: with `--log-timers-to-tensorboard`
