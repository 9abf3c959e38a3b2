#: name: model-args-conflict: `--yaml-cfg` with `--use-mcore-models` passes parse_args' check at Megatron Core 0.7 (training/arguments.py@core_v0.7.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --overlap-grad-reduce --yaml-cfg gpt.yaml --use-mcore-models
