#: name: invalid-value: `alltoall_seq` with no release named: older releases accepted it, so it is a warning that names the release it assumes, not an error
#: path: /project/train.sh
#: files: none
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --num-experts 8 --expert-model-parallel-size 8 \
    --moe-token-dispatcher-type alltoall_seq
#                               ^^^^^^^^^^^^ warning[invalid-value]: This assumes
