#: name: model-args-conflict: QK-clip's alpha must lie in (0, 1) and its threshold above 0 (training/arguments.py@core_v0.16.0:972-978, @d98e8a6:1612-1618)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --qk-clip --qk-clip-alpha 1.0 --qk-clip-threshold 0
#             ^^^^^^^^^^^^^^^ error[model-args-conflict]: --qk-clip-alpha must be between 0.0 and 1.0 when u
#                                 ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: --qk-clip-threshold must be greater than 0 when us
