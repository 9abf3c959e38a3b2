#: name: schedule-config-invalid: at 0.19 sample-based training still divides by --eval-interval, which has no default (config/training_config.py@core_v0.19.0:119; update_train_iters from get_optimizer_param_scheduler, training.py@core_v0.19.0:1928; total_eval_points = train_iters // eval_interval + 1, :4479-4481)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-samples 12800000 --lr-decay-samples 12800000 --lr 1e-4
#   ^^^^^^^^^^^^^^^ error[schedule-config-invalid]: turns the samples into iterations
