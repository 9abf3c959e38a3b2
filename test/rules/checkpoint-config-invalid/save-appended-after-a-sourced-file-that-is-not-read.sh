#: name: checkpoint-config-invalid: --save appended to an array that a sourced file not read may have set (llm-jp/scripts' params.sh, which holds the rest of the flags): --save-interval may be among them, so nothing is reported, and the note says the command is not all in the file
#: path: pretrain/qsub_train.sh
#: files: none
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
source "${TASK_DIR}/params.sh"
ALL_PARAMS+=( --save /ckpt --load /ckpt )
torchrun --nproc_per_node 8 pretrain_gpt.py "${ALL_PARAMS[@]}"
#                                           ^^^^^^^^^^^^^^^^^^ information[script-not-analysed]: `source ${TASK_DIR}/params.sh` is not read
