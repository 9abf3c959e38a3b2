#: name: version-unsupported-key: tasks/main.py defines --eval-micro-batch-size itself at 0.10.0 (tasks/main.py@core_v0.10.0:51) although the shared parser has it only from 0.18.0: for an entry script whose own flags are not known, a flag the shared parser lacks is not called refused
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun tasks/main.py --task MNLI --eval-micro-batch-size 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                      ^^^^^^ warning[unknown-key]: unless `main.py` defines it
