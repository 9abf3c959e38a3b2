#: name: rl-config-invalid: the granularity checks run only inside `if args.perform_rl_step:` (megatron/training/arguments.py@core_v0.19.0:448)
#: path: rl.sh
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --rl-consumption-granularity R
