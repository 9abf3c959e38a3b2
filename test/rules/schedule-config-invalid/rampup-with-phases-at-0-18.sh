#: name: schedule-config-invalid: from core_v0.18.0 a ramp-up beside training phases is not checked at startup: no schedule finding (deprecated-key says nothing reads the ramp-up from 0.18)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-samples 12800000 --lr-decay-samples 12800000 --phase-transition-iterations 500 --rampup-batch-size 32 32 1000000 \
#                                                                                          ^^^^^^^^^^^^^^^^^^^ warning[deprecated-key]: the batch ramp-up is gone
    --eval-interval 1000
