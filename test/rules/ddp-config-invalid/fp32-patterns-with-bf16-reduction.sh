#: name: ddp-config-invalid: fp32 local-accumulation patterns with --grad-reduce-in-bf16 run (the other gradients stay in bf16)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --grad-reduce-in-bf16 --ddp-param-name-patterns-for-fp32-local-accumulation router
