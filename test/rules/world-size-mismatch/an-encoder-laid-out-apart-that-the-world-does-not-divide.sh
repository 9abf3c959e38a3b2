#: name: world-size-mismatch: the same layout on 8 GPUs: 8 is not divisible by TP 4 plus the encoder's 3 ranks
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_vlm.py \
^^^^^^^^ error[world-size-mismatch]: + the encoder's 3 ranks = 7
  --tensor-model-parallel-size 4 --pipeline-model-parallel-size 1 \
  --encoder-tensor-model-parallel-size 3 --encoder-pipeline-model-parallel-size 1 \
  --num-layers 24 --hidden-size 1024 --num-attention-heads 24 --kv-channels 64 \
  --seq-length 2048 --max-position-embeddings 2048 \
  --micro-batch-size 1 --global-batch-size 16 --train-iters 10 --lr 1e-4 --bf16
