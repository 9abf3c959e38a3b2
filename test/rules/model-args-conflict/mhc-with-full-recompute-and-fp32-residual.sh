#: name: model-args-conflict: manifold hyper-connections refuse full recompute and an fp32 residual (transformer_config.py@d98e8a6:2069-2074, 2103-2108)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --enable-mhc-connections --recompute-granularity full --recompute-method uniform --recompute-num-layers 1 --fp32-residual-connection
#                            ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: enable_mhc_connections is not yet compatible with full activation reco
#                                                                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: enable_mhc_connections is not compatible with fp32_residual_connection
