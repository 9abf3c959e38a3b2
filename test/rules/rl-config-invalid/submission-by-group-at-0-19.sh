#: name: rl-config-invalid: 0.19.0 asks --rl-partial-rollouts only of submission granularity R (megatron/training/arguments.py@core_v0.19.0:527-535), so G alone passes
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-submission-granularity G
