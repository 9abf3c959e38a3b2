#: name: cuda-graph-config-invalid: the local implementation adds moe_router for moe_preprocess, which a dense model refuses (transformer_config.py@core_v0.16.0:1725-1755)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl local --cuda-graph-scope moe_preprocess
#                           ^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: `--cuda-graph-scope` names MoE graphs (`moe`, `moe_router` o
