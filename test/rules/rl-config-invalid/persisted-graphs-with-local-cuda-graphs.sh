#: name: rl-config-invalid: with --cuda-graph-impl local the graphs are built, and offloading the KV cache with persisted graphs runs
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --cuda-graph-impl local --rl-persist-cuda-graphs --rl-kv-cache-management-mode offload
