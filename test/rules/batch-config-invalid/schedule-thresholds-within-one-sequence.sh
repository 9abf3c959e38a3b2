#: name: batch-config-invalid: two thresholds less than a sequence length apart come to the same sample count (num_microbatches_calculator.py@core_v0.18.0:523-548, the same at d98e8a6)
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.18.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 \
    --step-batch-size-schedule "0:768 1000:1536" \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[batch-config-invalid]: schedule thresholds must be strictly increasing, g
    --bf16
