#: name: model-args-conflict: the Mamba builder refuses the fused TP communication with the inference-optimized layers (mamba_builders.py@core_v0.16.0:17-19)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_mamba.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --hybrid-override-pattern 'M*M*' \
    --transformer-impl inference_optimized --normalization RMSNorm --disable-bias-linear --inference-fuse-tp-communication
#                                                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: not supported for Mamba
