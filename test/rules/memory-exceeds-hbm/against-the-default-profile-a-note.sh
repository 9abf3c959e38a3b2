#: name: memory-exceeds-hbm: with no hardware named, the comparison is with the default profile: a note that says so
#: path: train_70b.sh
#!/bin/bash
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 80 \
    --hidden-size 8192 \
    --num-attention-heads 64 \
    --seq-length 4096 \
    --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 \
#                                ^ information[memory-exceeds-hbm]: (the default profile: no hardware is set)
    --micro-batch-size 1 \
    --bf16
