#: name: version-unsupported-key: examples/multimodal/train.py adds --disable-vision-class-token itself at 0.8.0 (examples/multimodal/train.py@core_v0.8.0:294, 313), a release before pretrain_vlm.py has it, so 0.8.0 is not told it refuses the flag
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun examples/multimodal/train.py --disable-vision-class-token --num-layers 2 --hidden-size 64 --num-attention-heads 4
