#: name: layers-not-divisible-by-pp: the `|` segments of a hybrid pattern must be a multiple of PP (training/arguments.py@core_v0.17.0:691-700)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_hybrid.py \
    --hybrid-layer-pattern "M-|M-|M-" --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
#   ^^^^^^^^^^^^^^^^^^^^^^ error[layers-not-divisible-by-pp]: 3 `|`-separated pipeline segments
    --pipeline-model-parallel-size 2  \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000
