#: name: model-args-conflict: from 0.20 DeepSeek sparse attention with CP takes only the all-gather communication (transformer_config.py@d98e8a6:3164-3176)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --experimental-attention-variant dsa --disable-bias-linear --context-parallel-size 2 --dsa-indexer-n-heads 4 --dsa-indexer-head-dim 16 --dsa-indexer-topk 64
#                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: DSAttention context parallelism currently supports cp_comm_type=allgat
