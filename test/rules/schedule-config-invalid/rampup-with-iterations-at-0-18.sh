#: name: schedule-config-invalid: from core_v0.18.0 the ramp-up check is gone (the ramp-up moved to the batch-size schedules): no schedule finding (deprecated-key says nothing reads the ramp-up from 0.18)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr-decay-iters 50000 --rampup-batch-size 32 32 1000000 --eval-interval 1000
#                                              ^^^^^^^^^^^^^^^^^^^ warning[deprecated-key]: the batch ramp-up is gone
