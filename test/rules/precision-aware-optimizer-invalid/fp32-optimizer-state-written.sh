#: name: precision-aware-optimizer-invalid: the dtypes written as fp32 need no precision-aware optimizer
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 --overlap-grad-reduce --overlap-param-gather \
    --use-distributed-optimizer --main-grads-dtype fp32 --exp-avg-dtype fp32
