#: name: world-size-mismatch: Megatron-LM 0.9–0.11 lays a vision encoder out apart when --encoder-pipeline-model-parallel-size > 0, and the world must divide by its ranks plus the decoder's: 7 GPUs for TP 4 and encoder TP 3 run
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 7 pretrain_vlm.py \
  --tensor-model-parallel-size 4 --pipeline-model-parallel-size 1 \
  --encoder-tensor-model-parallel-size 3 --encoder-pipeline-model-parallel-size 1 \
  --num-layers 24 --hidden-size 1024 --num-attention-heads 24 --kv-channels 64 \
  --seq-length 2048 --max-position-embeddings 2048 \
  --micro-batch-size 1 --global-batch-size 16 --train-iters 10 --lr 1e-4 --bf16
