#: name: recompute-config-invalid: from 0.14 only delayed scaling refuses recomputing the layer norms (transformer_config.py@core_v0.14.0:913-918; the Transformer Engine version it also asks for is not in the file)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --fp8-format hybrid --fp8-recipe tensorwise --recompute-granularity selective --recompute-modules core_attn layernorm
