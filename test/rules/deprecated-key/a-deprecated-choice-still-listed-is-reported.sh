#: name: deprecated-key: `--model-provider mamba` is still a choice but deprecated from 0.18.0: the help says so and a DeprecationWarning is raised when the model is built (megatron/inference/utils.py@core_v0.18.0:52, 170-174); it builds the same hybrid model as `hybrid`
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
torchrun train_rl.py --model-provider mamba --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                                     ^^^^^ information[deprecated-key]: deprecated since Megatron-LM 0.18.0
