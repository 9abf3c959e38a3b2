#: name: model-args-conflict: GTP weight sharding with --ckpt-format fsdp_dtensor (training/arguments.py@core_v0.19.0:1518-1521, @d98e8a6:1558)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --tensor-parallel-num-weight-shards 2 --ckpt-format fsdp_dtensor --use-megatron-fsdp
#                                         ^^^^^^^^^^^^^ error[model-args-conflict]: GTP supports only
