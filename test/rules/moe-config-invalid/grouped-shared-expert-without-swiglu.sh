#: name: moe-config-invalid: the shared experts as one grouped GEMM need SwiGLU (moe/shared_experts.py@d98e8a6:418-424)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --moe-shared-expert-intermediate-size 128 --use-grouped-gemm-for-shared-expert --moe-shared-expert-glu-interleave-size 32
#                                                                                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: FusedSharedExpertMLP requires SwiGLU
