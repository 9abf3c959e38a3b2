#: name: memory-exceeds-hbm: with TP at the NVLink domain, full recomputation and DP 1 (nothing to shard over), only more pipeline stages are left to suggest
#: path: train_405b.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \
    --num-layers 126 --hidden-size 16384 --num-attention-heads 128 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 8 --sequence-parallel --tp-comm-overlap --pipeline-model-parallel-size 2 \
#                                ^ warning[memory-exceeds-hbm]: expect an out-of-memory error. Add pipeline stages.
    --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 \
    --use-megatron-fsdp --data-parallel-sharding-strategy optim_grads_params --ckpt-format fsdp_dtensor \
    --micro-batch-size 1 --global-batch-size 64 \
    --bf16
