#: name: rl-config-invalid: at core_v0.17.0 and 0.18.0 parallel generations need partial rollouts and a multiple of the group size (training/arguments.py@core_v0.18.0:516-547), the older form of the generation-lag check
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --grpo-group-size 4 \
    --rl-num-parallel-generations 6
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: --rl-num-parallel-generations requires --rl-partial-rollouts.
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: must be divisible by --grpo-group-size
