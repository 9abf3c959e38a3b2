#: name: pipeline-config-invalid: before 0.9 the split rank is checked only with PP above 1 (training/arguments.py@core_v0.8.0:192): nothing
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_t5.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce  \
    --pipeline-model-parallel-split-rank 1
