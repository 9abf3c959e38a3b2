#: name: model-args-conflict: at 0.10 and 0.11 the per-layer list is checked without CP too (transformer_config.py@core_v0.10.0:577-582)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cp-comm-type p2p a2a a2a
#   ^^^^^^^^^^^^^^ error[model-args-conflict]: `--cp-comm-type` gives 3 communication types, and the model
