#: name: model-args-conflict: from 0.20 the gated-delta-net head checks apply to its new name `gdn` too (transformer_config.py@d98e8a6:1470-1503)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
# shardwise-disable missing-tp-comm-overlap, tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 10 --lr 1e-4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --tensor-model-parallel-size 8 --sequence-parallel --experimental-attention-variant gdn --linear-attention-freq 4 --linear-num-key-heads 4
#                                                                                                                     ^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: not a multiple of TP × CP
