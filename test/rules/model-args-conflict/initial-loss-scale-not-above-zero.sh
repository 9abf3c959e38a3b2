#: name: model-args-conflict: with fp16 and a dynamic loss scale the loss scaler asserts initial_scale > 0 (core/optimizer/grad_scaler.py@core_v0.12.0:14)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --eval-interval 10 --lr 1e-4 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --fp16 --initial-loss-scale 0
#          ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Megatron stops when it builds the optimizer's loss scaler
