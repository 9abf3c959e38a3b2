#: name: version-unsupported-key: `--lazy-mpu-init` was `type=bool` before 0.17.0 and took a word (training/arguments.py@core_v0.16.0:2277), so a bare switch stops 0.16.0 ("expected one argument")
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --lazy-mpu-init --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^^^^^ error[version-unsupported-key]: takes exactly 1 value
