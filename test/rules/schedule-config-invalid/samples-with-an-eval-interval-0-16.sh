#: name: schedule-config-invalid: sample-based training with --eval-interval sizes its validation set (training.py@core_v0.16.0:3300-3307): nothing to report
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-samples 12800000 --lr-decay-samples 12800000 --lr 1e-4 --eval-interval 1000
