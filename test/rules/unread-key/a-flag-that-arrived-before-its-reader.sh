#: name: unread-key: --rl-inference-parsers arrived in 0.17.0 (megatron/training/arguments.py@core_v0.17.0) before its reader (megatron/rl/inference/megatron.py@core_v0.18.0): at 0.17 it changes nothing, which the history scan finds by itself
#: path: rl.sh
#!/bin/bash
# shardwise: megatron_core=0.17.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-inference-parsers foo
#   ^^^^^^^^^^^^^^^^^^^^^^ warning[unread-key]: It takes effect from 0.18.0
