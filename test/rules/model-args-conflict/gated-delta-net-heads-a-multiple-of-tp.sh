#: name: model-args-conflict: gated delta net with 8 key and 32 value heads at TP 8 splits evenly (transformer_config.py@core_v0.16.0:978-983): nothing to report
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
# shardwise-disable missing-tp-comm-overlap, tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 10 --lr 1e-4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --tensor-model-parallel-size 8 --sequence-parallel --experimental-attention-variant gated_delta_net --linear-attention-freq 4 --linear-num-key-heads 8
