#: name: memory-exceeds-hbm: a vision-language run that freezes the language model (--freeze-LM) holds no gradients or optimizer state for it, so 7B on one GPU fits
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
    --micro-batch-size 1 \
    --freeze-LM \
    --bf16
