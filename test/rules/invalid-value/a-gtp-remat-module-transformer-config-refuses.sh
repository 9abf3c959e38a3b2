#: name: invalid-value: --gtp-remat-opt-in-modules has no argparse choices, but TransformerConfig.__post_init__ allows only moe_latent_proj (transformer_config.py@d98e8a6:2202-2208): any other module stops the run when the config is built
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --gtp-remat-opt-in-modules moe_latent_proj mlp
#                                              ^^^ error[invalid-value]: must be `moe_latent_proj`, not `mlp`
