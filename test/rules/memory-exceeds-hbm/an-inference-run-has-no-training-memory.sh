#: name: memory-exceeds-hbm: a run of an inference program (`infer.py`) keeps no gradients or optimizer states: the training estimate is not compared with the GPU's memory
#: path: scripts/infer.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 tools/infer.py \
    --num-layers 39 --hidden-size 5120 --num-attention-heads 40 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --micro-batch-size 1 --load /ckpt --bf16
