#: name: fsdp-config-invalid: Muon and the other emerging optimizers run without Megatron-FSDP from 0.18, where Megatron-FSDP's own optimizer check stops first (training/arguments.py@core_v0.18.0:1122-1124, @d98e8a6:1149-1151)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-megatron-fsdp --ckpt-format torch --optimizer muon
#                       ^^^^^^^^^^^^^ error[fsdp-config-invalid]: Megatron-FSDP requires the `fsdp_dtensor`
#                                           ^^^^^^^^^^^ error[fsdp-config-invalid]: Megatron-FSDP does not support the muon optimizer yet
