#: name: with the node count written, the same layout does not fit one node; the MoE grid fills no world, so no DP overlap is advised
#: path: train_mixtral.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
GPUS_PER_NODE=8
NNODES=1
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \
    --num-layers 32 \
    --hidden-size 4096 \
    --num-attention-heads 32 \
    --num-experts 8 \
    --tensor-model-parallel-size 1 \
    --pipeline-model-parallel-size 4 \
    --expert-model-parallel-size 8 \
#                                ^ error[expert-grid-mismatch]
    --micro-batch-size 1 \
    --bf16
