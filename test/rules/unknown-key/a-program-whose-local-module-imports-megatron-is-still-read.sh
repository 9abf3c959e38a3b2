#: name: unknown-key: a program that imports nothing of Megatron itself but a local module that does (its `initialize.py` imports megatron.training) reads Megatron-LM's flags: still read as a Megatron-LM launch script, and a flag neither defines is a warning
#: path: scripts/train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 train.py \
    --tensor-model-parallel-size 1 \
    --num-layers 4 \
    --hidden-size 1024 \
    --num-attention-heads 16 \
    --overlap-grad-reduce \
    --no-such-flag 1
    ^^^^^^^^^^^^^^ warning[unknown-key]: unless
