#: name: model-args-conflict: before core_v0.19.0 deterministic mode takes the TP communication overlap
#: settings: {"targetVersions": {"megatron-core": "0.18.2"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=Ring
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --deterministic-mode --tensor-model-parallel-size 2 --sequence-parallel --tp-comm-overlap
#                                                     ^ information[tp-larger-than-needed]: TP 2 is more than this model needs
