#: name: checkpoint-config-invalid: Muon and the other emerging optimizers save only in the torch and torch_dist formats (training/arguments.py@core_v0.18.0:1567, @d98e8a6:1741)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --optimizer muon
#                                                  ^^^^^^^^^^^ error[fsdp-config-invalid]: Megatron-FSDP does not support the muon optimizer yet
#                       ^^^^^^^^^^^^^ error[checkpoint-config-invalid]: Emerging optimizer supports torch and torch_dist c
