#: name: model-args-conflict: before Megatron Core 0.8 parse_args asserts `--use-mcore-models` beside `--yaml-cfg` (training/arguments.py@core_v0.6.0:57-60, the same @core_v0.7.0)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --overlap-grad-reduce --yaml-cfg gpt.yaml
#                                                                 ^^^^^^^^^^ error[model-args-conflict]: "To use yaml, mcore must be enabled"
