#: name: model-args-conflict: NVTE_APPLY_QK_LAYER_SCALING=1 exported without the flag makes the config (False) and the variable disagree, and Transformer Engine attention raises (extensions/transformer_engine.py@core_v0.15.0:865-873)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NVTE_APPLY_QK_LAYER_SCALING=1
#                                  ^ error[model-args-conflict]: without `--apply-query-key-layer-scaling`
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4
