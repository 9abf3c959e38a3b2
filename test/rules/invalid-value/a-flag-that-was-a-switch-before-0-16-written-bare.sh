#: name: invalid-value: `--export-kv-cache-quant` is a switch (store_true) in Megatron-LM 0.12-0.15 (megatron/post_training/arguments.py@core_v0.13.0:34-36), so the bare flag has no value to judge there
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --export-kv-cache-quant --num-layers 2 --hidden-size 64 --num-attention-heads 4
