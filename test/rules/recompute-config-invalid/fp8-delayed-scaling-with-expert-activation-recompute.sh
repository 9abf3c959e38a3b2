#: name: recompute-config-invalid: FP8 delayed scaling, the default recipe, refuses recomputing the expert activation (transformer_config.py@core_v0.14.0:913-918, @d98e8a6:2001-2006)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 4 --moe-grouped-gemm --fp8-format hybrid --recompute-granularity selective --recompute-modules moe_act --disable-bias-linear
#                                                                                            ^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: Delayed scaling does not support moe_act and layernorm recompute
