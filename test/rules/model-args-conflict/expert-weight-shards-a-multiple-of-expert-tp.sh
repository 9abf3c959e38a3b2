#: name: model-args-conflict: expert weight shards that are a multiple of expert TP build
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 --disable-bias-linear \
    --tensor-model-parallel-size 2 --sequence-parallel --num-experts 4 --expert-model-parallel-size 2 --expert-tensor-parallel-size 1 --expert-tensor-parallel-num-weight-shards 2
#                                ^ information[missing-tp-comm-overlap]: TP 2 with sequence parallelism
