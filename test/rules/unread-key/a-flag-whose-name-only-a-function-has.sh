#: name: unread-key: from 0.18.0 nothing reads `--openai-gelu` (the legacy models were removed); a function named openai_gelu in megatron/core/transformer/utils.py defines a name, it does not read the argument
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py --openai-gelu --num-layers 2 --hidden-size 64 --num-attention-heads 4
#                        ^^^^^^^^^^^^^ information[unread-key]: Nothing in Megatron-LM 0.18.0 reads `--openai-gelu`
