#: name: rl-config-invalid: at core_v0.16.0 an offloaded KV cache refuses unified memory, with or without --perform-rl-step (training/arguments.py@core_v0.16.0:331-336)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 \
    --rl-offload-kv-cache-during-training --inference-dynamic-batching-unified-memory-level 1
#                                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: The KV cache should not be instantiated in unified memory
