#: name: unread-key: from 0.18.0 --rl-inference-parsers is read (megatron/rl/inference/megatron.py@core_v0.18.0): no finding
#: path: rl.sh
#!/bin/bash
# shardwise: megatron_core=0.18.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-inference-parsers foo
