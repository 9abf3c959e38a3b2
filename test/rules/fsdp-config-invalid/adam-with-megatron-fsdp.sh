#: name: fsdp-config-invalid: Adam with Megatron-FSDP runs
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --optimizer adam
