#: name: moe-config-invalid: shared experts with the linear biases on (the default) stop Megatron Core when it builds the MoE layers (moe/shared_experts.py@core_v0.15.0:47, @d98e8a6:124)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --moe-shared-expert-intermediate-size 128
#                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: bias is not supported in the shared experts
