#: name: pipeline-config-invalid: with virtual stages, the first stage's layers must be a multiple of their number (transformer_config.py@core_v0.11.0:603-615, @d98e8a6:2306-2316)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --decoder-first-pipeline-num-layers 3 --decoder-last-pipeline-num-layers 5
#                                                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: must be divisible by virtual pipeline
