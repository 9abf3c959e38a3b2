#: name: fsdp-config-invalid: Megatron-FSDP version 2 with DP only, no gradient accumulation fusion, the full sharding strategy, no outer sharding, no CUDA graphs and BF16 passes its checks (megatron/core/distributed/fsdp/mcore_fsdp_adapter.py@d98e8a6:627-703)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --bf16 --use-megatron-fsdp --megatron-fsdp-version 2 --no-gradient-accumulation-fusion --ckpt-format fsdp_dtensor \
    --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 --context-parallel-size 1 \
    --data-parallel-sharding-strategy optim_grads_params --outer-dp-sharding-strategy no_shard --cuda-graph-impl none \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000
