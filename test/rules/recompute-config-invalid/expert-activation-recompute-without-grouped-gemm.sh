#: name: recompute-config-invalid: recomputing the expert activation needs grouped GEMM (transformer_config.py@core_v0.12.0:735-738, @d98e8a6:1964-1967)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 4 --recompute-granularity selective --recompute-modules moe_act
#                                                     ^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: only supported with moe_grouped_gemm
