#: name: fsdp-config-invalid: NCCL user buffers with expandable segments under PyTorch FSDP2 run, since FSDP2 builds its own config with nccl_ub left off (training.py@core_v0.15.0:954-956, distributed_data_parallel_config.py@core_v0.15.0:145-146)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion \
    --use-nccl-ub --overlap-grad-reduce \
    --micro-batch-size 1 --global-batch-size 64 --train-iters 100
