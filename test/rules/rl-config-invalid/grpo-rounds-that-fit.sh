#: name: rl-config-invalid: a global batch of 64 and intervals that are multiples of the 2 steps a round feeds run
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --save-interval 100 --exit-interval 64
