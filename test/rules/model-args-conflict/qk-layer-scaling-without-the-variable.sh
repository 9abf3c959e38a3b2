#: name: model-args-conflict: Transformer Engine attention takes query-key layer scaling only from NVTE_APPLY_QK_LAYER_SCALING and raises when it disagrees with the flag (extensions/transformer_engine.py@core_v0.15.0:865-873); the script does not export it, and the environment that runs it might: a warning
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --apply-query-key-layer-scaling
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[model-args-conflict]: the script does not export `NVTE_APPLY_QK_LAYER_SCALING=1`
