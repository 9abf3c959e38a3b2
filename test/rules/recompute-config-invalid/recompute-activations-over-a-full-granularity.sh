#: name: recompute-config-invalid: --recompute-activations makes the granularity selective over a written full one, so full recomputation needs no method there (megatron/arguments.py@core_v0.4.0:124-126, training/arguments.py@d98e8a6:607-609)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --recompute-activations --recompute-granularity full
