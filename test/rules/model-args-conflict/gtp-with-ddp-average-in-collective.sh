#: name: model-args-conflict: generalized TP (4 weight shards over TP 2) with --ddp-average-in-collective stops at startup (training/arguments.py@core_v0.19.0:1513-1516)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce --tp-comm-overlap \
    --tensor-model-parallel-size 2 --sequence-parallel --tensor-parallel-num-weight-shards 4 \
    --ddp-average-in-collective
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: "GTP requires --ddp-average-in-collective off
