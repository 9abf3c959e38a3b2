#: name: schedule-config-invalid: both scheduler sources (megatron/optimizer_param_scheduler.py@core_v0.4.0:46, core/optimizer_param_scheduler.py@d98e8a6:175-178)
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr-decay-iters 50000 --eval-interval 1000 --lr 3e-4 \
    --override-opt-param-scheduler \
    --use-checkpoint-opt-param-scheduler
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[schedule-config-invalid]: both choose where the scheduler settings come from
