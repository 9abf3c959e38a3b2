#: name: model-args-conflict: DeepSeek sparse attention without the indexer head count crashes when the layers are built (experimental_attention_variant/dsa.py@d98e8a6:1123, 1158-1162)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 --disable-bias-linear --no-rope-fusion \
    --multi-latent-attention --experimental-attention-variant dsa --dsa-indexer-head-dim 16 --dsa-indexer-topk 64
#                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: `--experimental-attention-variant dsa`
