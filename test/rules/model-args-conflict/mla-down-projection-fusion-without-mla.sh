#: name: model-args-conflict: the MLA down-projection fusion needs multi-latent attention (training/arguments.py@core_v0.17.0:1587-1588, @d98e8a6:1976-1977)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --mla-down-proj-fusion
#   ^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: --mla-down-proj-fusion requires --multi-latent-att
