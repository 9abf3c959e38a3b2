#: name: memory-exceeds-hbm: with the distributed optimizer already on, it is not suggested again: sharding gradients and parameters too is
#: path: train_70b.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 80 --hidden-size 8192 --num-attention-heads 64 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 \
#                                ^ warning[memory-exceeds-hbm]: Raise TP within the NVLink domain (up to 8), add pipeline parallelism (PP), shard gradients and parameters over DP too (Megatron FSDP) or recompute whole layers (full recomputation).
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 64 \
    --bf16
