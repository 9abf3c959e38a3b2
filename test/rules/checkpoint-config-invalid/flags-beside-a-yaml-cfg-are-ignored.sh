#: name: checkpoint-config-invalid: a launch that passes --yaml-cfg has its arguments replaced by the file's ("argparse arguments will be ignored", training/yaml_arguments.py@core_v0.15.0:442-450) and checked by validate_yaml, so the flags beside it meet none of validate_args' checks
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --overlap-grad-reduce --yaml-cfg gpt.yaml --load-main-params-from-ckpt --ckpt-format torch_dcp
