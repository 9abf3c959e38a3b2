#: name: invalid-value: a choice today's Megatron-LM does not have, for a Megatron-LM the script takes from a folder not checked out: its choices are not known
#: path: /project/examples/bloom/run_finetune.sh
#: files: none
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=/project/backends/PAI-Megatron-LM-240718:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: is not read here
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --global-batch-size 8 \
    --position-embedding-type alibi \
    --micro-batch-size two \
#                      ^^^ error[invalid-value]: must be an integer
    --bf16
