#: name: model-args-conflict: before 0.8.0 no argument check looks at the sequence length under CP, but the first training batch fails when it is cut into 2 × CP chunks (training/utils.py@core_v0.7.0:235-250)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 130 --max-position-embeddings 130 --bf16 \
#                                                           ^^^^^^^^^^^^ error[model-args-conflict]: fails on the first training batch
    --context-parallel-size 2 --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --mock-data
