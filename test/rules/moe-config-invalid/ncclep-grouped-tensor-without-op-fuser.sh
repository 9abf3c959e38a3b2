#: name: moe-config-invalid: the NCCL-EP backend refuses the grouped expert tensor without the op fuser (transformer_config.py@d98e8a6:1768-1774)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend ncclep --moe-grouped-gemm --moe-use-grouped-tensor
#                                                                                                                                           ^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: not yet supported with the NCCL-EP dispatcher
