#: name: precision-aware-optimizer-invalid: fp16 main parameters without the precision-aware optimizer stop at the first release with the dtypes (optimizer_config.py@core_v0.11.0:173-175)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --micro-batch-size 1 --global-batch-size 8 --bf16 --overlap-grad-reduce --overlap-param-gather \
    --use-distributed-optimizer --main-params-dtype fp16
#                               ^^^^^^^^^^^^^^^^^^^ error[precision-aware-optimizer-invalid]: without `--use-precision-aware-optimizer`
