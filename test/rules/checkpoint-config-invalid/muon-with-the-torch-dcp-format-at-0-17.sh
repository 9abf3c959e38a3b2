#: name: checkpoint-config-invalid: Megatron Core 0.16 and 0.17 let Muon save only in torch and torch_dist (training/arguments.py@core_v0.16.0:1187, @core_v0.17.0:1485)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --no-gradient-accumulation-fusion --ckpt-format torch_dcp --optimizer muon
#                                                                                             ^^^^^^^^^^^^^ error[checkpoint-config-invalid]: Muon optimizer supports torch and torch_dist checkpoint format.
#                                                                                                                     ^^^^^^^^^^^ error[fsdp-config-invalid]: Muon optimizer does not support Torch-FSDP2 for now.
