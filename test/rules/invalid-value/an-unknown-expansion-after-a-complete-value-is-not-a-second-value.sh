#: name: invalid-value: words whose text is unknown after a flag's value (or after a flag that takes none) are not more values of it
#: path: /project/examples/run_pretrain.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
EXPERTS=$1
if [ "$EXPERTS" -gt 0 ]; then
    moe_opts="--num-experts ${EXPERTS} --moe-router-topk 2"
fi
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --micro-batch-size 1 --global-batch-size 8 \
    --attention-dropout 0.0 \
    ${moe_opts} \
#   ^^^^^^^^^^^ information[script-not-analysed]: Part of the training command is not in this file
    --untie-embeddings-and-output-weights \
    ${tie_opts} ${qk_norm_opts} \
    --rotary-base 500000 $rope_scaling_opts \
    --bf16
