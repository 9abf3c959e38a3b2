#: name: cuda-graph-config-invalid: an MoE model refuses the moe graph without drop-and-pad, mlp with every layer MoE, and moe_preprocess without moe_router under Transformer Engine (transformer_config.py@core_v0.18.0:2258-2289)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --cuda-graph-impl transformer_engine --cuda-graph-modules moe mlp moe_preprocess
#                                                        ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--cuda-graph-modules` has `mlp` and every layer is an MoE l
#                                                        ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--cuda-graph-modules` has `moe` for dropless MoE (no `--moe
#                                                        ^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--cuda-graph-modules` with `moe_preprocess` and without `mo
