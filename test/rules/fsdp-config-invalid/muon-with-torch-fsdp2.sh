#: name: fsdp-config-invalid: from 0.18 an emerging optimizer with Torch-FSDP2 stops Megatron-LM (training/arguments.py@core_v0.18.0:1565, @d98e8a6:1739)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion --optimizer soap
#                                                                                             ^^^^^^^^^^^ error[fsdp-config-invalid]: Emerging optimizer does not support Torch-FSDP2 for now.
