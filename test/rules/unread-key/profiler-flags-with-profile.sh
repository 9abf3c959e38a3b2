#: name: unread-key: with --profile the PyTorch profiler runs over the steps given (training/training.py@core_v0.15.0:2150-2155): nothing
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.15.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 \
    --profile --use-pytorch-profiler --profile-step-start 5
