#: name: overlap-config-invalid: at core_v0.4.0 only the distributed optimizer is asserted (megatron/arguments.py@core_v0.4.0:170-172)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-distributed-optimizer --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 8 --bf16
