#: name: tp-larger-than-needed: TP 3 × PP 4 on 8 GPUs fills no world, so no DP is reasoned from it (world-size-mismatch says what is wrong)
#: path: train.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \
^^^^^^^^ error[world-size-mismatch]: not divisible by TP 3 × PP 4 × CP 1 = 12
  --tensor-model-parallel-size 3 \
                               ^ information[missing-tp-comm-overlap]
  --pipeline-model-parallel-size 4 \
  --num-layers 32 --hidden-size 4608 --num-attention-heads 48 \
  --seq-length 4096 --max-position-embeddings 4096 \
  --micro-batch-size 1 --global-batch-size 64 \
  --bf16 --use-distributed-optimizer --sequence-parallel
