#: name: fp8-config-invalid: the MXFP8 gradient-buffer reuse without FP8 parameters stops when the DDP config is built (distributed_data_parallel_config.py@core_v0.13.0:117-118)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --use-distributed-optimizer --overlap-param-gather --fp8-format e4m3 --fp8-recipe mxfp8 \
    --reuse-grad-buf-for-mxfp8-param-ag
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]: without `--fp8-param-gather`
