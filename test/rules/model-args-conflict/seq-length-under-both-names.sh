#: name: model-args-conflict: `--seq-length` with `--encoder-seq-length` stops Megatron-LM's argument checks at every release (megatron/training/arguments.py validate_args, core_r0.4.0 to HEAD)
#: path: train.sh
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 --bf16 \
    --encoder-seq-length 2048 \
#   ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: Keep `--seq-length`
    --micro-batch-size 1 --global-batch-size 256 --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather
