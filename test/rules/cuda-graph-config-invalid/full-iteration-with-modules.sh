#: name: cuda-graph-config-invalid: a full-iteration graph takes no module list (transformer_config.py@core_v0.18.0:2237-2239)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --no-check-for-nan-in-loss-and-grad --eval-interval 1000 \
    --cuda-graph-impl full_iteration --cuda-graph-modules attn mlp
#                                    ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: must be empty
