#: name: layers-not-divisible-by-pp: 30 layers written without hidden size or heads still do not split over PP 4 (megatron/training/arguments.py@core_v0.10.0 refuses an uneven split without virtual stages)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 30 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 4 --sequence-parallel --tp-comm-overlap \
#                                                                 ^ error[layers-not-divisible-by-pp]: 30 layers do not split into PP 4 stages
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 64 --bf16
