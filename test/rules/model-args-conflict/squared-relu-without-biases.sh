#: name: model-args-conflict: --squared-relu with --disable-bias-linear (the argument checks then turn the bias-GELU fusion off) or with --no-bias-gelu-fusion passes (arguments.py@d98e8a6:1605-1606)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --squared-relu --disable-bias-linear
