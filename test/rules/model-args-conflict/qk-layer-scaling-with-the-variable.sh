#: name: model-args-conflict: the flag with NVTE_APPLY_QK_LAYER_SCALING=1 exported is what Transformer Engine asks for (extensions/transformer_engine.py@core_v0.15.0:865-873)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NVTE_APPLY_QK_LAYER_SCALING=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --apply-query-key-layer-scaling
