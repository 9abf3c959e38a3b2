#: name: pipeline-config-invalid: from core_v0.14.0 a virtual degree of 1 is dropped before the interleaved schedule's PP check (training/arguments.py@core_v0.14.0): PP 1 runs
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --num-layers-per-virtual-pipeline-stage 32 \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
