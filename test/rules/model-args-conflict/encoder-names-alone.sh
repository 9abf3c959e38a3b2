#: name: model-args-conflict: the encoder names alone are the GPT settings under their other names: accepted
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --encoder-num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --encoder-seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather
