#: name: fsdp-config-invalid: 0.17 checks only Muon ('muon' in args.optimizer): Lion with Megatron-FSDP passes its argument checks
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --optimizer lion
