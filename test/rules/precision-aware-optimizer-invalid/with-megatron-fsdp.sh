#: name: precision-aware-optimizer-invalid: Megatron-FSDP turns the distributed optimizer on itself (arguments.py@core_v0.18.0:1107-1119), so the precision-aware optimizer is not judged without --use-distributed-optimizer
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --use-megatron-fsdp --use-precision-aware-optimizer --ckpt-format fsdp_dtensor
