#: name: fp16-and-bf16-enabled: a program that imports Megatron only through its own package (train.py → mytrain/run.py → megatron.training) reaches Megatron-LM's argument parsing: a Megatron-LM launch, and `--fp16` with `--bf16` stops it (training/arguments.py@core_v0.15.0:724)
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 train.py \
^^^^^^^^ information[missing-overlap-grad-reduce]: DP 8 without overlapped gradient reduction: each step
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --global-batch-size 64 \
    --fp16 \
    ^^^^^^ error[fp16-and-bf16-enabled]: `--fp16` and `--bf16` are exclusive: Megatron-LM stops at
    --bf16
