#: name: rl-config-invalid: offloading the KV cache needs persisted graphs, and not unified memory (training/arguments.py@core_v0.17.0:381-391, @d98e8a6:501-514)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-kv-cache-management-mode offload --inference-dynamic-batching-unified-memory-level 1
#                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
#                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
