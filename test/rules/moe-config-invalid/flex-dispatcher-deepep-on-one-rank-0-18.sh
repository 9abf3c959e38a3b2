#: name: moe-config-invalid: the flex dispatcher on its default DeepEP backend with TP × EP of 1 stops (token_dispatcher.py@core_v0.18.0:1421-1422)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 8 --disable-bias-linear --moe-token-dispatcher-type flex
#                                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]
