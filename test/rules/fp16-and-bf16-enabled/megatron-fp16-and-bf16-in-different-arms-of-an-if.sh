#: name: fp16-and-bf16-enabled: `--fp16` and `--bf16` added to an array in different arms of an if on the script's argument are never passed together: nothing to say
#: path: /project/toolkits/convert.sh
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
PR=$1
OTHER_ARGS=(--bf16)
if [ ${PR} = fp16 ]; then
    OTHER_ARGS+=(--fp16)
elif [ ${PR} = bf16 ]; then
    OTHER_ARGS+=(--no-gradient-accumulation-fusion)
fi
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    "${OTHER_ARGS[@]}"
