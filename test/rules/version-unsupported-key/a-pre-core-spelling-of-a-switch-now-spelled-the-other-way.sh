#: name: version-unsupported-key: `--overlap-p2p-communication` switched the overlap on in Megatron-LM 23.06–23.08 (megatron/arguments.py@23.06:940-943); 0.4.0 spells the argument `--no-overlap-p2p-communication`, on by default (megatron/arguments.py@core_v0.4.0:1094-1096), so the old spelling is refused and is not a typo of the new one
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --num-layers 24 --hidden-size 1024 --num-attention-heads 16 --pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 2 --overlap-p2p-communication
#                                                                                                                                                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[version-unsupported-key]: dropped in Megatron-LM 0.4.0
