#: name: cuda-graph-config-invalid: after 0.19 local graphs refuse fine-grained offloading with whole-layer capture (transformer_config.py@d98e8a6:2940-2943)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading --offload-modules expert_fc1 --cuda-graph-impl local --num-experts 4 --moe-grouped-gemm --disable-bias-linear
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: is not supported with whole-layer CUDA graph capture
