#: name: model-args-conflict: --squared-relu keeps the fused bias-GELU, on by default while the linear layers have biases, and TransformerConfig accepts the fusion only for GELU-like activations (argument_utils.py@d98e8a6:318-322, transformer_config.py@d98e8a6:2420-2425; the same from core_v0.5.0)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --squared-relu
#   ^^^^^^^^^^^^^^ error[model-args-conflict]: When bias_activation_fusion is True, activation function should be either gelu
