#: name: checkpoint-config-invalid: --ckpt-convert-format needs --ckpt-convert-save and --load (training/arguments.py@d98e8a6:392-394, initialize.py@core_v0.9.0:54-56)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 \
    --load /ckpt --ckpt-convert-format torch_dist
#                ^^^^^^^^^^^^^^^^^^^^^ error[checkpoint-config-invalid]
