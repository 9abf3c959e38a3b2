#: name: deprecated-key: before 0.18.0 `mamba` is the only name of the hybrid model provider (examples/inference/gpt/utils.py@core_v0.13.0:68, megatron/inference/utils.py@core_v0.17.1:161): nothing to say
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
torchrun train_rl.py --model-provider mamba --num-layers 2 --hidden-size 64 --num-attention-heads 4
