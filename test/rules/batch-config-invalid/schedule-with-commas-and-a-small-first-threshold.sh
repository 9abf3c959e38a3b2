#: name: batch-config-invalid: commas separate entries too, and a first threshold below one sequence length comes to 0 samples: the schedule runs
#: path: train.sh
#!/bin/bash
# shardwise: megatron_core=0.18.0
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 \
    --step-batch-size-schedule "100:768,1M:1536,250B:3072" \
    --bf16
