#: name: recompute-config-invalid: fine-grained activation offloading asserts that the modules to offload are given, and they default to none (transformer_config.py@core_v0.16.0:1268-1272, @d98e8a6:2127-2131)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --fine-grained-activation-offloading
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[recompute-config-invalid]: an assertion that
