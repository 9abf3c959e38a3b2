#: name: fsdp-config-invalid: Megatron Core 0.16 and 0.17 refuse Muon with Megatron-FSDP in their own words (training/arguments.py@core_v0.16.0:1178-1186, @core_v0.17.0:1476-1484)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --optimizer muon
#                                                  ^^^^^^^^^^^ error[fsdp-config-invalid]: Muon optimizer does not support Megatron-FSDP for now.
#                       ^^^^^^^^^^^^^ error[checkpoint-config-invalid]: Muon optimizer supports torch and torch_dist checkpoint format.
