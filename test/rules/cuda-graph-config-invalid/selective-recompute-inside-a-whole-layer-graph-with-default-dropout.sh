#: name: cuda-graph-config-invalid: --recompute-activations recomputes the attention core (the default module) inside the whole-layer graph of --cuda-graph-impl local, and attention dropout is 0.1 by default: refused (transformer_config.py@core_v0.16.0:1800-1811, @core_v0.19.0:2540-2552, @d98e8a6:2873-2885)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl local \
    --recompute-activations
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: attention dropout is not supported with graphed attention recomputation
