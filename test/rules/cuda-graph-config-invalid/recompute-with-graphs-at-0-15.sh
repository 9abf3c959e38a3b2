#: name: cuda-graph-config-invalid: Megatron Core 0.15 allows recomputation beside CUDA graphs only when it is selective, Transformer Engine graphs only the attention, and the attention core is not recomputed: the default module core_attn is refused (transformer_config.py@core_v0.15.0:1397-1409)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --cuda-graph-impl transformer_engine --cuda-graph-scope attn \
    --recompute-activations
#   ^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: attn cuda graph is not supported with
