#: name: rl-config-invalid: from core_v0.16.0 the packing bin is gone, and a long sequence packs
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 16384 --max-position-embeddings 16384 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-use-sequence-packing
