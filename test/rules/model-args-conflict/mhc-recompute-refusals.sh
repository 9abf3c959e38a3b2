#: name: model-args-conflict: mhc selective recompute needs the hyper-connections and excludes mlp recompute and a layer count below 1 (transformer_config.py@d98e8a6:2028-2044)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --recompute-granularity selective --recompute-modules mhc mlp --mhc-recompute-layer-num 0
#                                     ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: 'mhc' in recompute_modules requires enable_mhc_connections=True
#                                     ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: 'mhc' and 'mlp' in recompute_modules cannot be used together
#                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: mhc_recompute_layer_num must be a positive integer when 'mhc' is in re
