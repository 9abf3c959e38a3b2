#: name: ddp-config-invalid: --ddp-num-buckets with --ddp-bucket-size (training.py@core_v0.17.0:1451-1453; distributed_data_parallel_config.py@core_v0.18.0:260-261)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --ddp-num-buckets 4 --ddp-bucket-size 40000000
#   ^^^^^^^^^^^^^^^^^ error[ddp-config-invalid]: "Cannot specify both --ddp-num-buckets and --ddp-bucket-size"
