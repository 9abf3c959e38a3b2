#: name: schedule-config-invalid: WSD without its annealing length (training.py@core_v0.8.0:479-481, optimizer_param_scheduler.py@core_v0.8.0:40, core/optimizer_param_scheduler.py@d98e8a6:163-164)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr-decay-iters 50000 --eval-interval 1000 --lr 3e-4 \
    --lr-decay-style WSD
#   ^^^^^^^^^^^^^^^^ error[schedule-config-invalid]: without `--lr-wsd-decay-iters`
