#: name: invalid-value: Megatron-LM checks no range in argparse; `--fp8-amax-history-len 0` is read only by FP8 training and `--clip-grad -1` turns clipping off (core/optimizer/optimizer.py@core_v0.4.0:320 clips only above 0), so both are hints, not errors
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --fp8-amax-history-len 0 --clip-grad -1
#                          ^ hint[invalid-value]: only FP8 training reads it
#                                        ^^ hint[invalid-value]: turns clipping off
