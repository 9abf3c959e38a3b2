#: name: rl-config-invalid: with --perform-rl-step, validate_args refuses --rl-consumption-granularity G while the submission granularity is B, its default (megatron/training/arguments.py@core_v0.19.0:538-541, default "B" at :2584; @d98e8a6:556-559)
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-consumption-granularity G
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: (the default)
