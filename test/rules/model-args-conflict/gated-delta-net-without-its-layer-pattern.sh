#: name: model-args-conflict: gated delta net needs --linear-attention-freq (transformer_config.py@core_v0.16.0:948-951, @d98e8a6:1474-1477)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --experimental-attention-variant gated_delta_net
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: linear_attention_freq must be set for linear gdn
