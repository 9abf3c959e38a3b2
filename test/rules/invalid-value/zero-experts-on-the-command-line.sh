#: name: invalid-value: `--num-experts 0` is a dense model on Megatron-LM's command line (arguments.py@core_v0.8.0:524-525, @d98e8a6:1648-1649 turn it into None), not a value it refuses
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 10 --overlap-grad-reduce --eval-interval 1000 \
    --num-experts 0
