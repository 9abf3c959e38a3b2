#: name: moe-config-invalid: the NCCL-EP backend needs the flex dispatcher (transformer_config.py@core_v0.19.0:1609-1614, @d98e8a6:1763-1768)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type alltoall --moe-flex-dispatcher-backend ncclep
#                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires moe_token_dispatcher_type='flex'
