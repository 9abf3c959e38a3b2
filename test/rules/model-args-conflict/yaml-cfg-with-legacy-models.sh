#: name: model-args-conflict: from Megatron Core 0.8 to 0.17 parse_args refuses `--use-legacy-models` beside `--yaml-cfg` (training/arguments.py@core_v0.8.0:63-67, @core_v0.17.0:106-110; gone @core_v0.18.0 with the flag)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --overlap-grad-reduce --yaml-cfg gpt.yaml --use-legacy-models
#                                                                                     ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: "Yaml config is not supported with legacy models."
