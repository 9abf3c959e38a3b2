#: name: invalid-value: a path written as a placeholder for the user to replace ("your model ckpt path", /path/to/…, xxx) is not what runs: its word splitting is not reported, the value is unknown
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
CKPT_LOAD_DIR="your model ckpt path"
CKPT_SAVE_DIR="/path/to/save dir"
DATA_PATH="xxx/my data"
TOKENIZER="path to your tokenizer"
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --seq-length 4096 --max-position-embeddings 4096 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 \
    --load $CKPT_LOAD_DIR --save $CKPT_SAVE_DIR --data-path $DATA_PATH --tokenizer-model $TOKENIZER
