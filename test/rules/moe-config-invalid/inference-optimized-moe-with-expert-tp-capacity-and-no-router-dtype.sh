#: name: moe-config-invalid: the inference-optimized MoE layers refuse expert TP, a capacity factor and a router dtype other than fp32 (transformer_config.py@core_v0.17.0:1171-1186, @d98e8a6:1599-1614)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --expert-tensor-parallel-size 2 --transformer-impl inference_optimized --moe-expert-capacity-factor 1.0 --normalization RMSNorm
#                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: does not support expert tensor parallelism
#                                                                                                                       ^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires --moe-router-dtype=fp32
#                                                                                                                                                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: only support dropless MoE
