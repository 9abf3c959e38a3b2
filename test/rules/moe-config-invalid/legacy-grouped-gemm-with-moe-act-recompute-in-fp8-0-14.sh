#: name: moe-config-invalid: the legacy GroupedMLP refuses moe_act recomputation in FP8 of any recipe (experts.py@core_v0.14.0:132-137), where the model config refuses only delayed scaling
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --moe-grouped-gemm --disable-bias-linear --moe-use-legacy-grouped-gemm --recompute-granularity selective --recompute-modules moe_act --fp8-format hybrid --fp8-recipe tensorwise
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: moe_act recompute for fp8 cannot work with the legacy GroupedMLP
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
