#: name: inference-config-invalid: a threshold of -1 turns microbatched inference off, beside CUDA graphs
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 2 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 2 --inference-batch-times-seqlen-threshold -1 --cuda-graph-impl local
