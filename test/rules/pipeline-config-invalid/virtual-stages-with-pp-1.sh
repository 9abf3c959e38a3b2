#: name: pipeline-config-invalid: virtual stages (4 per rank here) with PP 1 stop Megatron-LM at startup (training/arguments.py@d98e8a6:1000-1004, from core_v0.8.0)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers-per-virtual-pipeline-stage 8 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
