#: name: data-config-invalid: the null tokenizer without a vocabulary size (training/tokenizer/tokenizer.py@core_v0.8.0:53-54)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --mock-data --tokenizer-type NullTokenizer
#               ^^^^^^^^^^^^^^^^ error[data-config-invalid]: `--tokenizer-type NullTokenizer` without `--vocab-size`: Megatron-LM b
