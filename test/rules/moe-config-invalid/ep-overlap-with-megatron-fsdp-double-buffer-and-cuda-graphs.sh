#: name: moe-config-invalid: EP all-to-all overlap under Megatron-FSDP refuses its double buffer and per-layer CUDA graphs (core/distributed/fsdp/mcore_fsdp_adapter.py@core_v0.18.0:159-168)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
#                                  ^ error[missing-cuda-device-max-connections]: FSDP needs several CUDA work queues, and `CUDA_DEVICE_MAX_CO
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --overlap-moe-expert-parallel-comm --use-megatron-fsdp --use-distributed-optimizer --data-parallel-sharding-strategy optim_grads_params --ckpt-format fsdp_dtensor --fsdp-double-buffer --cuda-graph-impl transformer_engine
#                                                                                                                                                                                                                                                          ^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: does not support double buffer
#                                                                                                                                                                                                                                                                               ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: does not support per-layer CUDA graphs
