#: name: moe-config-invalid: shared-expert overlap beside EP all-to-all overlap stops Megatron Core when it builds the config (transformer_config.py@core_v0.14.0 on, @core_v0.19.0:2706-2708)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --train-iters 100 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --num-experts 64 --expert-model-parallel-size 8 --moe-token-dispatcher-type alltoall \
    --moe-shared-expert-intermediate-size 2048 \
    --overlap-moe-expert-parallel-comm --moe-shared-expert-overlap --disable-bias-linear
#                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: disable moe_shared_expert_overlap
