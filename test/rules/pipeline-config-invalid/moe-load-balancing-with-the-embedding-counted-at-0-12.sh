#: name: pipeline-config-invalid: from 0.12 MoE's router losses and the embedding counted as a layer go together (the check is gone from training/arguments.py@core_v0.12.0): nothing
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 7 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --pipeline-model-parallel-size 2 --num-experts 8  \
    --account-for-embedding-in-pipeline-split
