#: name: moe-config-invalid: Megatron-LM 0.13 refuses --delay-wgrad-compute with --overlap-grad-reduce (arguments.py@core_v0.13.0:1061-1062); 0.14 allows the pair with a recent Transformer Engine
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --num-experts 8 --moe-router-topk 2 --expert-model-parallel-size 8 --moe-grouped-gemm \
    --use-distributed-optimizer --overlap-param-gather --overlap-grad-reduce --delay-wgrad-compute --disable-bias-linear
#                                                                            ^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Megatron-LM 0.13 stops
