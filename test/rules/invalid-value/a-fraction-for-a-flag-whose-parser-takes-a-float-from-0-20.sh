#: name: invalid-value: --rl-generation-lag is `type=float` from 0.20.0 (megatron/training/arguments.py@d98e8a6:2694: "May be fractional"), so 0.5 passes there
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-partial-rollouts --rl-generation-lag 0.5
