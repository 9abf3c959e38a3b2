#: name: layers-not-divisible-by-pp: pipeline flags Megatron-LM does not have, defined by a parser of the repository (`--pipeline-model-parallel-blocks 10,11,11,10`), split the layers their own way: nothing is said about 42 layers on PP 4
#: path: examples/train.sh
#: repository: files
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 1 \
    --pipeline-model-parallel-size 4 \
    --pipeline-model-parallel-method block \
    --pipeline-model-parallel-blocks 10,11,11,10 \
    --num-layers 42 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 64 --train-iters 100 --lr 1e-4 --eval-interval 1000
