#: name: moe-config-invalid: a shared-expert size of 0 stops (transformer_config.py@core_v0.10.0:403-408, @d98e8a6:1814-1819)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-shared-expert-intermediate-size 0
#                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: must be num_shared_experts * ffn_size_of_each_shared_expert
