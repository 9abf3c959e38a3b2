#: name: schedule-config-invalid: sample-based training with an iteration-based decay stops Megatron-LM at startup (megatron/training/arguments.py, validate_args, every release)
#: path: scripts/pretrain.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-samples 1000000 --eval-interval 1000 \
    --lr-decay-iters 40000 \
#   ^^^^^^^^^^^^^^^^ error[schedule-config-invalid]: Use `--lr-decay-samples`
    --lr-warmup-samples 10000
