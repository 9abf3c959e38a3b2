#: name: deprecated-key: a script whose Megatron-LM path is one of its arguments runs a release nobody named: no flag is judged unknown or removed
#: path: /project/examples/gpt3/run_pretrain_megatron.sh
#!/bin/bash
MEGATRON=$2
export PYTHONPATH=${MEGATRON}:$PYTHONPATH
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 $MEGATRON/pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: the script is given its path when it runs
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --micro-batch-size 4 --global-batch-size 32 \
    --bf16 \
    --data-impl mmap \
    --log-batch-size-to-tensorboard \
    --DDP-impl local
