#: name: fork-flags-not-checked: a Megatron-LM the script is given the path of is not read; of its flags, only those no release defines are named as showing a fork (--use-z-loss, llm-jp/Megatron-LM@nii-geniac:megatron/training/arguments.py:1155), not --data-impl, a flag of Megatron-LM's own releases before Core 0.4.0 (23.06:megatron/arguments.py:1082)
#: path: examples/gpt3/run_pretrain.sh
#!/bin/bash
torchrun --nproc_per_node 8 $MEGATRON_PATH/pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: The script passes `--use-z-loss`, which no Megatron-LM release defines
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --lr 1e-4 --train-iters 1000 --eval-interval 100 \
    --data-impl mmap --use-z-loss
