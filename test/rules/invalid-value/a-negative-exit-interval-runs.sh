#: name: invalid-value: Megatron-LM does not check the sign of --exit-interval and exits when the iteration divides evenly by it (training/training.py@core_v0.9.0:1403, @d98e8a6:4132-4133), so a negative one runs as its absolute value: a hint, not an error
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --exit-interval -5
#                   ^^ hint[invalid-value]: acts as its absolute value
