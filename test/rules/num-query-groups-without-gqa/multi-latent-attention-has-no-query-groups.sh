#: name: num-query-groups-without-gqa: with --multi-latent-attention the model is not plain multi-head attention, and Megatron-LM refuses --group-query-attention beside it (megatron/training/arguments.py@core_v0.16.0:1266): nothing to advise
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 8 --num-query-groups 2 \
    --multi-latent-attention \
    --micro-batch-size 1 --global-batch-size 8
