#: name: fp8-config-invalid: --fp4-param-gather with --fp4-format e2m1 runs
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 --use-distributed-optimizer \
    --fp4-format e2m1 --fp4-param-gather \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --overlap-param-gather
