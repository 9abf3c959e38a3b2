#: name: memory-exceeds-hbm: the same 7B language model trained (no --freeze-LM) does not fit on one GPU
#: path: train_vlm.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
torchrun --nproc_per_node 1 pretrain_vlm.py \
^^^^^^^^ information[gpus-per-node-mismatch]
    --num-layers 32 \
    --hidden-size 4096 \
    --num-attention-heads 32 \
    --seq-length 4096 \
    --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 \
#                                ^ warning[memory-exceeds-hbm]
    --micro-batch-size 1 \
    --bf16
