#: name: model-args-conflict: at core_v0.4.0 --squared-relu with the fused bias-GELU is refused in the words of its `bias_gelu_fusion` field (megatron/arguments.py@core_v0.4.0:450-454, transformer_config.py@core_v0.4.0:273-280)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --squared-relu
#   ^^^^^^^^^^^^^^ error[model-args-conflict]: When bias_gelu_fusion is True, activation_func must be F.gelu.
