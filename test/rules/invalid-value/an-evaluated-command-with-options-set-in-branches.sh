#: name: invalid-value: a command built as a string and run with eval, its options set in an if/elif on the script's arguments
#: path: /project/examples/run_mcore.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
PRECISION=$1
if [ $PRECISION = fp16 ]; then
    precision_opts=" \
        --fp16 --loss-scale 0"
elif [ $PRECISION = bf16 ]; then
    precision_opts=" \
        --bf16"
fi
if [ -n "$2" ]; then
    resume_opts=" --load $2"
fi
model_opts=" \
        --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
        --seq-length 4096 --max-position-embeddings 4096 \
        --micro-batch-size 1 --global-batch-size 8 \
        --position-embedding-type mrope \
        --mrope-section 16 24 24 \
        "
cmd="torchrun --nproc_per_node 8 pretrain_gpt.py --rotary-base 1000000
 ${precision_opts} ${model_opts} ${resume_opts}"
#^^^^^^^^^^^^^^^^^ information[script-not-analysed]: Part of the training command is not in this file
eval ${cmd}
