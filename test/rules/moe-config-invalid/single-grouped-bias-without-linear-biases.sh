#: name: moe-config-invalid: one grouped bias for all experts needs the linear biases (transformer_config.py@core_v0.18.0:1437-1438, @d98e8a6:1739-1740)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-grouped-gemm --disable-bias-linear --moe-single-grouped-bias
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires add_bias_linear=True
