#: name: moe-config-invalid: upcycling needs --save (training/arguments.py@core_v0.9.0:621-623, @d98e8a6:1862-1864)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --num-experts 8 --moe-use-upcycling --load /dense
#                   ^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: When using upcycling, the --save option must be sp
