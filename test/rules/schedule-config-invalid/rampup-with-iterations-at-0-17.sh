#: name: schedule-config-invalid: a batch-size ramp-up with iteration-based training stops Megatron-LM before core_v0.18.0 (megatron/arguments.py@core_v0.4.0:218-219, training/arguments.py@core_v0.17.0:1051-1052)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --train-iters 50000 --lr-decay-iters 50000 --rampup-batch-size 32 32 1000000 --eval-interval 1000
#                                              ^^^^^^^^^^^^^^^^^^^ error[schedule-config-invalid]: `--rampup-batch-size` with iteration-based training
