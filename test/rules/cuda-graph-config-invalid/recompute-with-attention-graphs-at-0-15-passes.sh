#: name: cuda-graph-config-invalid: at Megatron Core 0.15 selective recomputation of the MLP beside Transformer Engine graphs of the attention passes (transformer_config.py@core_v0.15.0:1397-1409)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --cuda-graph-impl transformer_engine --cuda-graph-scope attn \
    --recompute-activations --recompute-modules mlp
