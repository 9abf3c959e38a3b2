#: name: overlap-param-gather-requires-distributed-optimizer: from Megatron Core 0.17.0 `--optimizer dist_muon` may overlap the parameter all-gather without the distributed optimizer
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 --optimizer dist_muon \
    --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 8
