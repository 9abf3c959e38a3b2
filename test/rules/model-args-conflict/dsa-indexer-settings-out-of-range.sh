#: name: model-args-conflict: DeepSeek sparse attention refuses a top-k frequency below 1 and a negative skip offset (transformer_config.py@core_v0.19.0:1390-1398, @d98e8a6:1517-1525)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --experimental-attention-variant dsa --disable-bias-linear --dsa-indexer-topk-freq 0 --dsa-indexer-skip-topk-offset -1 --dsa-indexer-n-heads 4 --dsa-indexer-head-dim 16 --dsa-indexer-topk 64
#                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: dsa_indexer_topk_freq must be positive
#                                                                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: dsa_indexer_skip_topk_offset must be non-negative
