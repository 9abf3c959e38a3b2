#: name: deprecated-key: a flag Megatron Core 0.4.0 removed beside one 0.4.0 added (`--context-parallel-size`: in megatron/arguments.py@core_v0.4.0, in none of the 23.04, 23.06, 23.08 parsers, which have `--DDP-impl`): no release takes both, so the removed flag stops the run whichever release runs it
#: path: /project/train.sh
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 8 \
    --context-parallel-size 1 \
    --DDP-impl local \
    ^^^^^^^^^^ error[deprecated-key]: was removed in Megatron-LM 0.4.0
    --bf16
