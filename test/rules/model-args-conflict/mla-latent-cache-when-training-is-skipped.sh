#: name: model-args-conflict: caching MLA latents in a run that skips training (evaluation only, the model in eval mode) is not reported (multi_latent_attention.py@core_v0.15.0:215-217)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --multi-latent-attention --no-rope-fusion --cache-mla-latents --skip-train --load /ckpt
