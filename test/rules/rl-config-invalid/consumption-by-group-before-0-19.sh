#: name: rl-config-invalid: the granularity checks arrive with the flags in 0.19.0 (absent from megatron/training/arguments.py@core_v0.18.0); at 0.18.0 version-unsupported-key reports the flag and this rule says nothing
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --perform-rl-step \
    --rl-consumption-granularity G
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]
