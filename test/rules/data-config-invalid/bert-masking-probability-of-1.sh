#: name: data-config-invalid: a BERT masking probability of 1 (core/datasets/masked_dataset.py@core_v0.5.0:73, @d98e8a6:64)
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_bert.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path /d/a --split 99,1,0 --mask-prob 1 --tokenizer-type BertWordPieceLowerCase --vocab-file vocab.txt
#                                   ^^^^^^^^^^^ error[data-config-invalid]: `--mask-prob 1`: the masking probability must lie strictly between 0 a
