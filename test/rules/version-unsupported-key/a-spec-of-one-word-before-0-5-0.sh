#: name: version-unsupported-key: `--spec` takes exactly two words in Megatron-LM 0.4.0 (megatron/arguments.py@core_v0.4.0:1394, nargs=2) and any number from 0.5.0 (nargs="*"), so 0.4.0 refuses one
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --spec megatron.core.models.gpt.gpt_layer_specs --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]: takes exactly 2 values
