#: name: model-args-conflict: heterogeneous layers with multi-latent attention are refused (training/arguments.py@core_v0.12.0:1002-1003, argument_utils.py@d98e8a6:295-296)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --heterogeneous-layers-config-path layers.json --multi-latent-attention --position-embedding-type rope --no-rope-fusion
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Multi latent attention with heterogeneous layers is not supported
