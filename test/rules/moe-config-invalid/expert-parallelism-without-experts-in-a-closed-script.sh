#: name: moe-config-invalid: with every flag of the script visible, EP without experts is still an error
#: path: /project/recipes/train_moe.sh
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --tensor-model-parallel-size 1 \
    --expert-model-parallel-size 8 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Expert parallelism without experts
    --bf16
