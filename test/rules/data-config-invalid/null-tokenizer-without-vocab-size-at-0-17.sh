#: name: data-config-invalid: from Megatron Core 0.17 the builder passes vocab_size to the null tokenizer only when --vocab-size is set (build_tokenizer.py@core_v0.17.0:75-76), and NullTokenizer requires it (text/libraries/null_tokenizer.py@core_v0.17.0:14): a TypeError at startup
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --mock-data --tokenizer-type NullTokenizer
                ^^^^^^^^^^^^^^^^ error[data-config-invalid]: a TypeError
