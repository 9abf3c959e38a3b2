#: name: ddp-config-invalid: from core_v0.18.0 DistributedDataParallelConfig asserts the pair itself (distributed_data_parallel_config.py@core_v0.18.0:260-261)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --ddp-bucket-size 40000000 --ddp-num-buckets 4
#                              ^^^^^^^^^^^^^^^^^ error[ddp-config-invalid]: "Cannot specify both num_buckets and bucket_size"
