#: name: batch-config-invalid: before 0.18 the schedule is no flag of Megatron-LM (that is what is said), and nothing checks it against the global batch
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.17.1
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 \
    --global-batch-size 1536 \
    --step-batch-size-schedule "0:768 100000:1536" \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]: the targeted 0.17.1 does not know it
    --bf16
