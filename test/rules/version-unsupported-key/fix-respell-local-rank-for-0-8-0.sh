#: fix: version-unsupported-key Rename to `--local_rank`
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --local-rank 0 --num-layers 2 --hidden-size 64 --num-attention-heads 4
