#: name: rl-config-invalid: a cap of 128 requests above a batch of 64 requests (32 prompts × 2) needs --rl-partial-rollouts (training/arguments.py@d98e8a6:534-537, from 0.20.0)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-max-inflight-requests 128
#                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
