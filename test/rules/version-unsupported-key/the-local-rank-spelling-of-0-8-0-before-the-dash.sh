#: name: version-unsupported-key: 0.4.0-0.8.0 spell it --local_rank (arguments.py@core_v0.4.0:1118, training/arguments.py@core_v0.8.0:1440): accepted at 0.8.0, and --local-rank (training/arguments.py@core_v0.9.0:1571) refused there
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --local_rank 0 --num-layers 2 --hidden-size 64 --num-attention-heads 4
torchrun pretrain_gpt.py --local-rank 0 --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^^ error[version-unsupported-key]: spells this argument `--local_rank`
