#: name: model-args-conflict: from Megatron Core 0.8 Core models are the default and `--yaml-cfg` alone passes parse_args (training/arguments.py@core_v0.8.0:63-67)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --overlap-grad-reduce --yaml-cfg gpt.yaml
