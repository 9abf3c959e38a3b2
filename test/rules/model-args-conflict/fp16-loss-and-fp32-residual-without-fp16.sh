#: name: model-args-conflict: fp16 cross-entropy needs --fp16, an fp32 residual needs --fp16 or --bf16 (megatron/arguments.py@core_v0.4.0:286-290, training/arguments.py@d98e8a6:1372-1376)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 \
    --fp16-lm-cross-entropy --fp32-residual-connection
#                           ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: residual connection in fp32 only supported
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: lm cross entropy in fp16 only support in fp16 mode
