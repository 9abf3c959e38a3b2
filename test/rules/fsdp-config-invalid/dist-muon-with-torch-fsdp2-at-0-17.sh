#: name: fsdp-config-invalid: Megatron Core 0.17 refuses dist_muon with Torch-FSDP2 ('muon' in args.optimizer, training/arguments.py@core_v0.17.0:1476-1483)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion --optimizer dist_muon
#                                                                                             ^^^^^^^^^^^ error[fsdp-config-invalid]: Muon optimizer does not support Torch-FSDP2 for now.
