#: name: overlap-param-gather-requires-distributed-optimizer: Megatron Core 0.16 does not exempt `--optimizer dist_muon`, and no distributed optimizer is offered as the fix for Muon (whose overlaps 0.16 refuses as well)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --tensor-model-parallel-size 1 --bf16 --optimizer dist_muon \
    --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --overlap-param-gather
#   ^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: Muon optimizer does not support overlap grad reduce for now.
#                         ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]: Muon optimizer does not support overlap param gather for now.
#                         ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-param-gather-requires-distributed-optimizer]: Parameter all-gather overlap needs the distributed optimizer
