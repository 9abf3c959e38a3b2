#: name: cuda-graph-config-invalid: an MoE model graphs the attention, the router and its preprocessing, or (drop-and-pad) the whole MoE
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --cuda-graph-impl transformer_engine --cuda-graph-modules attn moe_router moe_preprocess
