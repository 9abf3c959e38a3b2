#: name: layers-not-divisible-by-pp: before 0.17 the stage checks of a hybrid pattern do not exist: nothing
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_hybrid.py \
    --hybrid-override-pattern "M-M-|M-M-" --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --pipeline-model-parallel-size 2 --decoder-last-pipeline-num-layers 2 \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000
