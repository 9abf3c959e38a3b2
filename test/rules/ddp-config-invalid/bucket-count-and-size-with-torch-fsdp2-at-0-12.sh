#: name: ddp-config-invalid: at core_v0.12.0 get_model checks the bucket flags before it picks FSDP2's config (training.py@core_v0.12.0:1004-1006)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion \
    --ddp-num-buckets 4 --ddp-bucket-size 40000000
#   ^^^^^^^^^^^^^^^^^ error[ddp-config-invalid]
