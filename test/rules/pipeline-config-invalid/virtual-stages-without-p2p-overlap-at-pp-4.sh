#: name: pipeline-config-invalid: without the p2p overlap PP 4 runs
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 4 --no-overlap-p2p-communication \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
