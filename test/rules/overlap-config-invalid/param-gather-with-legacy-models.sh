#: name: overlap-config-invalid: --overlap-param-gather with --use-legacy-models stops Megatron-LM from core_v0.8.0 to core_v0.17.0 (training/arguments.py@core_v0.8.0:284-285)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-legacy-models --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
#   ^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16 --ckpt-format torch
