#: name: version-unsupported-key: `--moe-token-dropping` is a switch of Megatron-LM 0.5.0 and 0.6.0 (megatron/arguments.py@core_v0.5.0:1460, megatron/training/arguments.py@core_v0.6.0:1590) for a field that later releases set only in config files: 0.6.0 accepts it
#: settings: {"targetVersions": {"megatron-core": "0.6.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --moe-token-dropping --num-layers 2 --hidden-size 64 --num-attention-heads 4
