#: name: model-args-conflict: multimodal RoPE needs --mrope-section (training/arguments.py@core_v0.12.0:832-834, @d98e8a6:1643-1645)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --position-embedding-type mrope
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: --mrope-section should be set when using --positio
