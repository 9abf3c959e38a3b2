#: name: fsdp-config-invalid: --use-custom-fsdp with the distributed optimizer and the default sharding runs at 0.13
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-custom-fsdp --use-distributed-optimizer --no-gradient-accumulation-fusion --data-parallel-sharding-strategy optim_grads_params \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
