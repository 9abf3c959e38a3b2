#: name: moe-config-invalid: probabilities on the expert input with top-1 routing and pre-softmax scores run
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 5 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --moe-apply-probs-on-input --moe-router-topk 1 --moe-router-pre-softmax
