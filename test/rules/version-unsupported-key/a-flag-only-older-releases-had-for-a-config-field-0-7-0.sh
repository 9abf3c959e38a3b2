#: name: version-unsupported-key: `--moe-token-dropping` is gone from the parser of Megatron-LM 0.7.0 (the field stays, set only in config files), so 0.7.0 refuses the flag
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --moe-token-dropping --num-layers 2 --hidden-size 64 --num-attention-heads 4 --mock-data
#                        ^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]: dropped in Megatron-LM 0.7.0
