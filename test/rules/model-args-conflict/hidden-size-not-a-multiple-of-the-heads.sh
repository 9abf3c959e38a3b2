#: name: model-args-conflict: without --kv-channels the hidden size must divide by the heads (megatron/arguments.py@core_v0.4.0:266-268, training/arguments.py@d98e8a6:1331-1333)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 1000 --num-attention-heads 16 --seq-length 128 --max-position-embeddings 128 --bf16 \
#                                     ^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: is not a multiple of
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4
