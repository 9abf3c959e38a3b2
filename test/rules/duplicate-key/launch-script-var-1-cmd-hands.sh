#: name: launch script: `VAR=1 cmd` hands the variable to the command; a flag passed twice
#: path: train.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 4 --sequence-parallel --tp-comm-overlap \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --bf16 --bf16
#   ^^^^^^ information[duplicate-key]: `--bf16` is passed twice with the same value
