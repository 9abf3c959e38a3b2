#: name: cuda-graph-config-invalid: recomputing the MLP inside the local whole-layer graph with hidden dropout at its default 0.1 is refused; --cuda-graph-modules attn keeps the MLP outside the graph (transformer_config.py@d98e8a6:2886-2899)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl local --recompute-granularity selective \
    --recompute-modules mlp
#   ^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: hidden dropout is not supported with graphed MLP/MoE recomputation
