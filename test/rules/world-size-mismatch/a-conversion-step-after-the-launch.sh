#: name: world-size-mismatch: a plain `python` conversion step after the torchrun launch does not replace the training command: the launch is still judged
#!/bin/bash
# shardwise-disable missing-cuda-device-max-connections, tp-exceeds-nvlink-domain, tp-without-sequence-parallel -- not what this case is about
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 16 \
^^^^^^^^ warning[world-size-mismatch]: 8 GPUs (8 processes per node × 1 node, from the torchrun options) are not divisible by TP 16
    --num-layers 24 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024 \
    --max-position-embeddings 1024 --micro-batch-size 4 --global-batch-size 64 --train-iters 100 --bf16 --eval-interval 1000
python tools/checkpoint/convert.py --load-dir ckpt --save-dir hf
