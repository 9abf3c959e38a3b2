#: name: pipeline-config-invalid: the same virtual stages with PP 2 and the p2p overlap on (its default) run
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 32 --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 8 \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
