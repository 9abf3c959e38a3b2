#: name: model-args-conflict: flash attention in deterministic mode is refused from 0.8 to 0.18 (training/arguments.py@core_v0.8.0:556-557, @core_v0.18.2:1536-1537)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export NCCL_ALGO=Ring
export NVTE_ALLOW_NONDETERMINISTIC_ALGO=0
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --deterministic-mode --use-flash-attn
#                        ^^^^^^^^^^^^^^^^ error[model-args-conflict]: Flash attention can not be used in deterministic mode
