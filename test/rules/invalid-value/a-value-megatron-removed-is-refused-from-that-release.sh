#: name: invalid-value: `--moe-token-dispatcher-type alltoall_seq` stops Megatron Core 0.13, which removed it; the message says which releases took it
#: path: /project/train.sh
#: files: none
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 --disable-bias-linear \
    --num-experts 8 --expert-model-parallel-size 8 \
    --moe-token-dispatcher-type alltoall_seq
#                               ^^^^^^^^^^^^ error[invalid-value]: accepted from 0.9.0 until 0.13.0, which refuses it
