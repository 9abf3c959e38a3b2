#: name: layers-not-divisible-by-pp: the old name --hybrid-override-pattern is read as --hybrid-layer-pattern from 0.17 (training/arguments.py@core_v0.17.0:593-603), so its `|` stages refuse a last stage size too (:652-656)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_hybrid.py \
    --hybrid-override-pattern "M-M-|M-M-" --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: is deprecated
    --pipeline-model-parallel-size 2 --decoder-last-pipeline-num-layers 2 \
#                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[layers-not-divisible-by-pp]: already set the layers of each stage
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000
