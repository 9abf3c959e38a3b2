#: name: ddp-config-invalid: with --fp16 the gradients are reduced in fp32 only when --accumulate-allreduce-grads-in-fp32 is given, so the patterns run
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --fp16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --ddp-param-name-patterns-for-fp32-local-accumulation router
