#: name: moe-config-invalid: the legacy GroupedMLP recomputes moe_act in bf16
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --moe-grouped-gemm --disable-bias-linear --moe-use-legacy-grouped-gemm --recompute-granularity selective --recompute-modules moe_act 
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
