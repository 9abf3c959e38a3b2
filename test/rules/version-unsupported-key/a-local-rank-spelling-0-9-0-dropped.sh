#: name: version-unsupported-key: --local_rank is the spelling up to 0.8.0 (training/arguments.py@core_v0.8.0:1440) and 0.9.0 has only --local-rank (training/arguments.py@core_v0.9.0:1571), so 0.9.0 refuses the old one
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --local_rank 0 --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^^ error[version-unsupported-key]: spells this argument `--local-rank`
