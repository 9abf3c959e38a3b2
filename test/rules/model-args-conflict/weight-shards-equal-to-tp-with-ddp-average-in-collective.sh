#: name: model-args-conflict: as many weight shards as TP is plain TP (no GTP factor), and --ddp-average-in-collective runs
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce --tp-comm-overlap \
    --tensor-model-parallel-size 2 --sequence-parallel --tensor-parallel-num-weight-shards 2 \
#                                ^ information[tp-larger-than-needed]
    --ddp-average-in-collective
