#: name: cuda-graph-config-invalid: MoE graph modules for a model without experts are refused (transformer_config.py@core_v0.18.0:2267-2271, @d98e8a6:2826-2830)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl transformer_engine --cuda-graph-modules attn moe_router
#                                        ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--cuda-graph-modules` names MoE graphs (`moe`, `moe_router`
