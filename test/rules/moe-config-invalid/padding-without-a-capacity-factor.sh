#: name: moe-config-invalid: padding the expert input needs a capacity factor (transformer_config.py@core_v0.7.0:342-346, @d98e8a6:1862-1866)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type alltoall --moe-pad-expert-input-to-capacity
#                                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: must be set to use moe_pad_expert_input_to_capacity
