#: name: inference-config-invalid: the threshold with --enable-cuda-graph (training/arguments.py@core_v0.13.0:1031, 0.14)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --inference-batch-times-seqlen-threshold 512 --pipeline-model-parallel-size 2 --enable-cuda-graph
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[inference-config-invalid]: incompatible with CUDA graphs
