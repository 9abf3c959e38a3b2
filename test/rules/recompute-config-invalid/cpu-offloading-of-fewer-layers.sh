#: name: recompute-config-invalid: offloading fewer layers than the model has, without PP or recompute, is accepted (transformer_config.py@core_v0.16.0:1137-1152)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cpu-offloading-num-layers 3
