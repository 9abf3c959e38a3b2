#: name: fsdp-config-invalid: at core_v0.13.1 Megatron-FSDP (--use-custom-fsdp) initialises the meta-device model's shards, so nothing is reported
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.13.1"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 --train-iters 100 --eval-interval 50 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --use-custom-fsdp --use-distributed-optimizer --overlap-param-gather --init-model-with-meta-device
