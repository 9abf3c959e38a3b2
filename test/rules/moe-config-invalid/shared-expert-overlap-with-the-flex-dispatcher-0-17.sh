#: name: moe-config-invalid: before 0.18 the shared-expert overlap refuses the flex dispatcher too (transformer_config.py@core_v0.17.0:1257-1262)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type flex --moe-shared-expert-intermediate-size 128 --moe-shared-expert-overlap --disable-bias-linear --expert-model-parallel-size 4
#                                                                                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: token dispatcher `flex`
