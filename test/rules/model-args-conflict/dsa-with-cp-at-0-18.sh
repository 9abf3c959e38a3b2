#: name: model-args-conflict: before core_v0.19.0 DeepSeek sparse attention refuses context parallelism (transformer_config.py@core_v0.16.0:1987-1990)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --experimental-attention-variant dsa --context-parallel-size 2 --dsa-indexer-n-heads 4 --dsa-indexer-head-dim 16 --dsa-indexer-topk 64
#                                                                 ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Currently context parallelism is not supported by DSAttention!
