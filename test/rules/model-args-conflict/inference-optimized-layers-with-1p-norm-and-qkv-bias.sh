#: name: model-args-conflict: the inference-optimized layers refuse a zero-centred gamma and a QKV bias (transformer_config.py@core_v0.16.0:1982-1984, @d98e8a6:3157-3159)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --transformer-impl inference_optimized --normalization RMSNorm --disable-bias-linear --apply-layernorm-1p --add-qkv-bias
#                                                                                        ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: `--apply-layernorm-1p` with `--transformer-impl inference_op
#                                                                                                             ^^^^^^^^^^^^^^ error[model-args-conflict]: `--add-qkv-bias` with `--transformer-impl inference_optimize
