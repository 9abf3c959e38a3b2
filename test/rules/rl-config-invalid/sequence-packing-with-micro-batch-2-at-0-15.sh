#: name: rl-config-invalid: at core_v0.15.0 sequence packing is not checked against the micro-batch
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 2 --global-batch-size 64 --rl-use-sequence-packing
