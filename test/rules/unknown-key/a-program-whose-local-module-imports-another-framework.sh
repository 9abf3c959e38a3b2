#: name: unknown-key: a program that imports a local module built on another training framework (GLM-130B's evaluate.py imports initialize.py, which imports SwissArmyTransformer and nothing of Megatron) parses its Megatron-like flags with that framework: its launch script is not read as a Megatron-LM launch script, as when the program imports it itself
#: path: /project/scripts/evaluate.sh
#!/bin/bash
script_path=$(realpath $0)
script_dir=$(dirname $script_path)
main_dir=$(dirname $script_dir)
torchrun --nproc_per_node 4 ${main_dir}/evaluate.py \
    --mode inference \
    --model-parallel-size 4 \
    --num-layers 70 \
    --hidden-size 12288 \
    --num-attention-heads 96 \
    --max-sequence-length 2048 \
    --vocab-size 150528 \
    --load ckpt \
    --fp16 \
    --no-such-flag 1
