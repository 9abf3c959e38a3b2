#: name: version-unsupported-key: 0.5.0-0.7.0 turn one-logger on with --enable-one-logger (training/arguments.py@core_v0.7.0:859); 0.8.0 has only --no-one-logger (training/arguments.py@core_v0.8.0:840), so the old switch is refused there and no other spelling turns it on
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --enable-one-logger --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]
