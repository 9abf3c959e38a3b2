#: name: moe-config-invalid: Sinkhorn load balancing with an aux-loss coefficient stops on the first step (router.py@core_v0.5.0:126, @d98e8a6:298)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --disable-bias-linear --moe-router-load-balancing-type sinkhorn --moe-aux-loss-coeff 0.01
#                                                                                   ^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]
