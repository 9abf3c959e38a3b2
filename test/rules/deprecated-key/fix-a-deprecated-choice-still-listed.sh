#: fix: deprecated-key Change to `hybrid`
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
torchrun train_rl.py --model-provider mamba --num-layers 2 --hidden-size 64 --num-attention-heads 4
