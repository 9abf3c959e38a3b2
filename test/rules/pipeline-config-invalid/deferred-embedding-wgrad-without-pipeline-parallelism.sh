#: name: pipeline-config-invalid: deferring the embedding weight gradient needs PP > 1 (model_parallel_config.py@core_v0.6.0:276-279, @d98e8a6:545-548)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --defer-embedding-wgrad-compute
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]: Cannot defer embedding wgrad compute when pipeline model parallel is not used
