#: name: precision-aware-optimizer-invalid: at 0.20 the distributed-optimizer check moved to get_megatron_optimizer and still stops without Megatron-FSDP version 2 (optimizer/__init__.py@d98e8a6:1054-1060)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --use-precision-aware-optimizer
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[precision-aware-optimizer-invalid]: only supported with distributed optimizer
