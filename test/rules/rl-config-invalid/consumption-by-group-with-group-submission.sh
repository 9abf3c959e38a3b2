#: name: rl-config-invalid: groups submitted and consumed as groups, with partial rollouts, pass validate_args (megatron/training/arguments.py@core_v0.19.0:527-541, @d98e8a6:540-558)
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-partial-rollouts --rl-submission-granularity G --rl-consumption-granularity G
