#: name: model-args-conflict: before 0.8 Megatron Core's model is chosen with --use-mcore-models, and its Transformer Engine attention takes query-key layer scaling only from NVTE_APPLY_QK_LAYER_SCALING (custom_layers/transformer_engine.py@core_v0.4.0:360-367); the script does not export it: a warning
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py --mock-data \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --use-mcore-models \
    --apply-query-key-layer-scaling
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[model-args-conflict]: the script does not export `NVTE_APPLY_QK_LAYER_SCALING=1`
