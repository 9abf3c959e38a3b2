#: name: model-args-conflict: --init-method-xavier-uniform stops with a TypeError at every release: the config builder also passes scaled_init_method, which TransformerConfig lacks (megatron/arguments.py@core_v0.4.0:455-457, training/argument_utils.py@d98e8a6:327-329)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --init-method-xavier-uniform
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: `--init-method-xavier-uniform`: Megatron-LM passes it to the
