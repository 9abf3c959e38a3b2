#: name: schedule-config-invalid: sample-based training meets the same division: Megatron-LM counts the iterations from --train-samples before it builds the data (update_train_iters, training.py@core_v0.16.0:1371-1376), then sizes the validation set with train_iters // eval_interval (training.py@core_v0.16.0:3300-3307), None from 0.16 (training_config.py@core_v0.16.0:98): a TypeError before training
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-samples 12800000 --lr-decay-samples 12800000 --lr 1e-4
#   ^^^^^^^^^^^^^^^ error[schedule-config-invalid]: Sample-based training (`--train-samples`) without `--eval-interval`
