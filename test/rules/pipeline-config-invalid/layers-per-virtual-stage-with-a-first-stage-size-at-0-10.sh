#: name: pipeline-config-invalid: at core_v0.10.0 the check is not there (training/arguments.py@core_v0.10.0)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 30 --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 6 --num-layers-per-virtual-pipeline-stage 4 \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
