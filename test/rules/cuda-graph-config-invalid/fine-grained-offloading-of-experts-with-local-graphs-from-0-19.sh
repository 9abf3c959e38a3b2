#: name: cuda-graph-config-invalid: from 0.19 local graphs take a partial MoE offload beside a module list (transformer_config.py@core_v0.19.0:2607-2623)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules expert_fc1 --cuda-graph-impl local --cuda-graph-modules attn --num-experts 4 --moe-grouped-gemm --disable-bias-linear
