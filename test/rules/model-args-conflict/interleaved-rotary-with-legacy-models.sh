#: name: model-args-conflict: interleaved rotary embeddings are refused with the legacy model (training/arguments.py@core_v0.17.0, from core_v0.8.0 to core_v0.17.x)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --position-embedding-type rope --rotary-interleaved --no-rope-fusion --use-legacy-models --ckpt-format torch
#                                  ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: --rotary-interleaved is not supported in legacy models
