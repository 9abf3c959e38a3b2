#: name: model-args-conflict: the patch release Megatron Core 0.18.2 already refuses Transformer Engine's cross-entropy fusion (training/arguments.py@core_v0.18.2:1528-1533)
#: settings: {"targetVersions": {"megatron-core": "0.18.2"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cross-entropy-loss-fusion --cross-entropy-fusion-impl te
#                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: disabled due to stability issues
