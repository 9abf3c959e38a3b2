#: name: fp8-config-invalid: from Megatron Core 0.14.0, under torch FSDP2 Megatron-LM turns --fp8-param-gather off with a warning when Transformer Engine is 2.0 or later (training/arguments.py@core_v0.14.0:587-592), before the fp8_param check: with a Transformer Engine this file cannot show, nothing is said
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 \
    --use-torch-fsdp2 --untie-embeddings-and-output-weights --fp8-param-gather --overlap-grad-reduce --no-gradient-accumulation-fusion
