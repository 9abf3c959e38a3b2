#: name: fp16-and-bf16-enabled: Megatron's `--fp16` with `--bf16` is reported under the rule that says so, not under fp8-config-invalid; Megatron-LM's argument checks assert it first, with no message (training/arguments.py@core_v0.15.0:724)
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 64 \
    --fp16 \
#   ^^^^^^ error[fp16-and-bf16-enabled]: `--fp16` and `--bf16` are exclusive: Megatron-LM stops at startup (an `assert not args.bf16`
    --bf16
