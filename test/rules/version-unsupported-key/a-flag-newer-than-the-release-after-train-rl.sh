#: name: version-unsupported-key: Megatron-LM's own train_rl.py (shipped from core_v0.15.0) parses Megatron-LM's flags, so a flag its release lacks stops it: --inference-wandb-logging (megatron/training/arguments.py@core_v0.16.0, absent @core_v0.15.3) at 0.15.3
#: path: rl.sh
#!/bin/bash
# shardwise: megatron_core=0.15.3
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --inference-wandb-logging
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]: arrived in Megatron-LM 0.16.0
