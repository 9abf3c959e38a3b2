#: name: moe-config-invalid: in 0.16 the legacy GroupedMLP refuses moe_act recomputation in FP4 too (experts.py@core_v0.16.0:102-109)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --moe-grouped-gemm --disable-bias-linear --moe-use-legacy-grouped-gemm --recompute-granularity selective --recompute-modules moe_act --fp4-format e2m1
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: moe_act recompute for fp8 or fp4 cannot work
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
