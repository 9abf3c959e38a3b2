#: name: deprecated-key: Megatron Core 0.13 marks --encoder-tensor-model-parallel-size "DEPRECATED (will be removed in core_r0.14.0)" in its help and warns when it is set (megatron/training/arguments.py@core_v0.13.0:2245-2247, 352-363); 0.14.0 removes it: a note at 0.13.0
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --encoder-tensor-model-parallel-size 1 --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: help calls it deprecated
