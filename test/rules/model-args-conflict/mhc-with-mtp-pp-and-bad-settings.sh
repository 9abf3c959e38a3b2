#: name: model-args-conflict: manifold hyper-connections refuse MTP, pipeline parallelism, zero Sinkhorn iterations and a negative gating factor (transformer_config.py@d98e8a6:2062-2125)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --enable-mhc-connections --position-embedding-type rope --mtp-num-layers 1 --pipeline-model-parallel-size 2 --mhc-sinkhorn-iterations 0 --mhc-init-gating-factor -0.5
#                                                           ^^^^^^^^^^^^^^^^ error[model-args-conflict]: enable_mhc_connections is not compatible with Multi-Token Prediction (
#                                                                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: enable_mhc_connections does not support pipeline_model_parallel_size >
#                                                                                                               ^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: mhc_sinkhorn_iterations must be >= 1
#                                                                                                                                           ^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: mhc_init_gating_factor must be non-negative
