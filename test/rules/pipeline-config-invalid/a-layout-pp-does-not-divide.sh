#: name: pipeline-config-invalid: a layout of 3 stages with PP 2 stops Megatron-LM (training/arguments.py@d98e8a6:945-949, from core_v0.13.0)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --num-layers 4 --pipeline-model-parallel-size 2 --pipeline-model-parallel-layout 'Et|tt|tL' \
#                                                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
