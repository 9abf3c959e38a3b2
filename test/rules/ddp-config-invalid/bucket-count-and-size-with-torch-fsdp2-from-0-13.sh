#: name: ddp-config-invalid: from core_v0.13.0 PyTorch FSDP2 builds its own config and never reads the bucket flags (training.py@core_v0.13.0:1094-1097)
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion \
    --ddp-num-buckets 4 --ddp-bucket-size 40000000
