#: name: batch-config-invalid: a step batch-size schedule beside `--global-batch-size` stops Megatron-LM at startup (megatron/training/arguments.py, validate_args, from core_v0.18.0)
#: path: examples/gpt3/train_gpt3_175b_distributed.sh
#!/bin/bash
# shardwise: megatron_core=0.18.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 \
    --global-batch-size 1536 \
    --step-batch-size-schedule "0:768 100000:1536" \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[batch-config-invalid]: Remove `--global-batch-size`
    --bf16
