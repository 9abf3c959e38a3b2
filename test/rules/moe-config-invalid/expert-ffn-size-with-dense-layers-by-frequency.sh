#: name: moe-config-invalid: a layer frequency that leaves some layers dense makes an expert FFN size without experts a warning only (transformer_config.py@d98e8a6:1689-1704)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --moe-ffn-hidden-size 128 --moe-layer-freq 2
