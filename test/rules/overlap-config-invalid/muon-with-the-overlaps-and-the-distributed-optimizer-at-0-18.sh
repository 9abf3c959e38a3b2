#: name: overlap-config-invalid: from 0.18 Muon takes the overlaps and the distributed optimizer (the Muon block is gone from training/arguments.py@core_v0.18.0)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --optimizer muon --overlap-grad-reduce --overlap-param-gather --use-distributed-optimizer
