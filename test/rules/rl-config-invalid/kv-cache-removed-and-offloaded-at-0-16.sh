#: name: rl-config-invalid: at core_v0.15.0 and 0.16.0 the KV cache is removed or offloaded during training, not both, and removing it excludes partial rollouts (training/arguments.py@core_v0.16.0:339-344)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-partial-rollouts \
    --rl-remove-kv-cache-during-training --rl-offload-kv-cache-during-training
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: Cannot use both partial-rollouts and remove-kv-cache-during-training
#                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: Cannot use both remove-kv-cache-during-training and offload-kv-cache-during-training
