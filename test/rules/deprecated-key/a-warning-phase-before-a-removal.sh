#: name: deprecated-key: Megatron-LM 0.17.0 warns that --rl-parallel-generation-tasks is deprecated and carries it over to --rl-num-parallel-generations (megatron/training/arguments.py@core_v0.17.0:416) before 0.19.0 removes it: a note at 0.17.0, the removal's error only from 0.19.0
#: path: rl.sh
#!/bin/bash
# shardwise: megatron_core=0.17.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-parallel-generation-tasks 4 --rl-partial-rollouts
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: is deprecated since Megatron-LM 0.17.0
