#: name: moe-config-invalid: the MoE paged stash refuses CPU offloading, a missing per-rank capacity factor and offloaded expert_fc1 (transformer_config.py@core_v0.18.0:1684-1697, @d98e8a6:2211-2228)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --moe-paged-stash --cpu-offloading-num-layers 1 --offload-modules expert_fc1
#                                                                                       ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: cannot be enabled with cpu_offloading
#                                                                                       ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: requires moe_expert_rank_capacity_factor
#                                                                                                                                       ^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: offload_modules must not include
