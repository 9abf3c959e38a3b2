#: name: deprecated-key: Megatron-LM raises at start-up on --no-position-embedding unless --position-embedding-type is rope (training/arguments.py@core_v0.10.0:653-654, at every release from 0.4.0): with the default learned_absolute an error
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 512 --num-attention-heads 8 \
    --seq-length 512 --max-position-embeddings 512 --micro-batch-size 1 --global-batch-size 8 \
    --overlap-grad-reduce --no-position-embedding
#                         ^^^^^^^^^^^^^^^^^^^^^^^ error[deprecated-key]: so Megatron-LM stops at start-up
