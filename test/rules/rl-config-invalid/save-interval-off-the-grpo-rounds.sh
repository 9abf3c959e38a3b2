#: name: rl-config-invalid: a round of 128 samples over a global batch of 8 feeds 16 steps, and --save-interval 100 is no multiple of it (training/arguments.py@core_v0.15.0:406-413, @d98e8a6:731-739)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 8 --save-interval 100 --exit-interval 64
#                                                                ^^^^^^^^^^^^^^^ error[rl-config-invalid]
