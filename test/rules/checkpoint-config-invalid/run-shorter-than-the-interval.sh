#: name: checkpoint-config-invalid: a run shorter than the interval never makes a non-persistent save
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 \
    --train-iters 50 --save /ckpt --save-interval 300 --non-persistent-save-interval 100 --eval-interval 1000
