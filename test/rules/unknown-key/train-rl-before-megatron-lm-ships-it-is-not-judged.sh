#: name: unknown-key: before core_v0.15.0 Megatron-LM has no train_rl.py (not in the tree at core_v0.14.0), so a script of that name is someone else's and its flags are not judged
#: path: rl.sh
#!/bin/bash
# shardwise: megatron_core=0.14.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --num-tokens-to-generate 64 --reward-model-path /models/rm
