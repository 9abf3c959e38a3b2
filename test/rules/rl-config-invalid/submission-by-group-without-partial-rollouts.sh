#: name: rl-config-invalid: from 0.20.0 any submission granularity but B needs --rl-partial-rollouts (megatron/training/arguments.py@d98e8a6:551-553); 0.19.0 asks it only of R (@core_v0.19.0:532-535), so G alone passes there
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-submission-granularity G
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: --rl-submission-granularity G requires --rl-partial-rollouts
