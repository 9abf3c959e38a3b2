#: name: memory-exceeds-hbm: a 70B model on one GPU does not fit for training
#: path: train_70b.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
torchrun --nproc_per_node 1 pretrain_gpt.py \
^^^^^^^^ information[gpus-per-node-mismatch]
    --num-layers 80 \
    --hidden-size 8192 \
    --num-attention-heads 64 \
    --seq-length 4096 \
    --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 \
#                                ^ warning[memory-exceeds-hbm]
    --micro-batch-size 1 \
    --bf16
