#: name: invalid-value: Megatron-LM 0.15.0 defines `--lazy-mpu-init` with type=bool (megatron/training/arguments.py@core_v0.15.0), so `--lazy-mpu-init True` is how it is written there; a switch from 0.17.0
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}, "rules": {"missing-cuda-device-max-connections": "off", "missing-overlap-grad-reduce": "off", "missing-tp-comm-overlap": "off"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --lazy-mpu-init True --tensor-model-parallel-size 2 --sequence-parallel
