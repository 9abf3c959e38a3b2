#: name: model-args-conflict: the cuDNN DSA kernels refuse indexer scoring without the ReLU on the first step (experimental_attention_variant/dsa_cudnn_kernels.py@core_v0.19.0:143-147)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 --disable-bias-linear --no-rope-fusion \
    --multi-latent-attention --experimental-attention-variant dsa --dsa-indexer-n-heads 4 --dsa-indexer-head-dim 16 --dsa-indexer-topk 64 --dsa-kernel-backend cudnn --no-dsa-indexer-scoring-relu
#                                                                                                                                                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: cuDNN fused DSA kernels currently
