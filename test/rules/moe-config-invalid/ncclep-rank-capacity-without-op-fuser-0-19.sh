#: name: moe-config-invalid: in 0.19 a per-rank capacity on NCCL-EP needs no op fuser without the static shape
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear --swiglu \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend ncclep --moe-expert-rank-capacity-factor 1.5 --moe-grouped-gemm
