#: name: cuda-graph-config-invalid: CPU offloading beside per-layer graphs is refused (transformer_config.py@core_v0.16.0:1722-1723, @d98e8a6:2801-2802)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 1 pretrain_gpt.py \
    --num-layers 4 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --cuda-graph-impl transformer_engine --cpu-offloading-num-layers 1
#                                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[cuda-graph-config-invalid]: CPU offloading of activations with `--cuda-graph-impl transf
