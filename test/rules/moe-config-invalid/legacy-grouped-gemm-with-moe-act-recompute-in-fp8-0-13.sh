#: name: moe-config-invalid: at 0.13 only the model config refuses moe_act recomputation with FP8 (recompute-config-invalid), not the legacy GroupedMLP
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --moe-grouped-gemm --disable-bias-linear --moe-use-legacy-grouped-gemm --recompute-granularity selective --recompute-modules moe_act --fp8-format hybrid --fp8-recipe tensorwise
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
#                                                                                                                            ^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: moe_act and layernorm recompute cannot work with fp8
