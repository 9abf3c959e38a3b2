#: name: invalid-value: `--high-priority-stream-groups` took nargs="*" in Megatron-LM 0.13-0.16 (training/arguments.py@core_v0.13.0:1979), so the bare flag is an empty list there, not a wrong value; from 0.17 the config-built flag takes at least one
#: settings: {"targetVersions": {"megatron-core": "0.13.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --high-priority-stream-groups --num-layers 2 --hidden-size 64 --num-attention-heads 4
