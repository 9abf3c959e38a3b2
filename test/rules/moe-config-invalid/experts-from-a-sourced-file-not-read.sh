#: name: moe-config-invalid: a sourced file that cannot be read may set the experts: no flag is known to be absent
#: path: /project/recipes/train_moe.sh
#: files: none
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
source "configs/${MODEL_NAME}.sh"
torchrun --nproc_per_node 8 pretrain_gpt.py ${MODEL_ARGS} --tensor-model-parallel-size 1 --expert-model-parallel-size 8 --bf16
#                                           ^^^^^^^^^^^^^ information[script-not-analysed]: MODEL_ARGS comes from the environment
