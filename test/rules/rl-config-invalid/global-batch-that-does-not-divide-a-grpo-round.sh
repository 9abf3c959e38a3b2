#: name: rl-config-invalid: a global batch of 48 does not divide the 128 samples of a GRPO round (32 prompts × 2 × 2, the defaults) (training/arguments.py@core_v0.15.0:395-402, @d98e8a6:722-728)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 48
#                                          ^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
