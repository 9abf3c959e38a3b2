#: name: pipeline-config-invalid: a pipeline layout with a first-stage size stops (transformer_config.py@core_v0.13.0:873-892, @d98e8a6:2242-2260)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --pipeline-model-parallel-size 2 --pipeline-model-parallel-layout "Et|tL" --decoder-first-pipeline-num-layers 1
#                                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: cannot be set with other pipeline layout arguments
