#: name: model-args-conflict: generalized TP with --gtp-remat-nccl-ub and --disable-symmetric-registration (training/arguments.py@d98e8a6:1590-1595)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce --overlap-param-gather --tp-comm-overlap \
    --tensor-model-parallel-size 2 --sequence-parallel --tensor-parallel-num-weight-shards 4 \
    --use-distributed-optimizer \
    --gtp-expert-remat-nccl-ub --disable-symmetric-registration
#                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: require symmetric window registration
