#: name: overlap-param-gather-requires-distributed-optimizer: the optim_grads_params strategy with the distributed optimizer at 0.13: nothing
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 --use-distributed-optimizer \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce \
    --data-parallel-sharding-strategy optim_grads_params
