#: name: data-config-invalid: a split beside per-split data (core/datasets/blended_megatron_dataset_config.py@core_v0.8.0:71, @d98e8a6:116)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --train-data-path /d/a --valid-data-path /d/b --split 99,1,0 --tokenizer-type NullTokenizer --vocab-size 100
#                                                 ^^^^^^^ error[data-config-invalid]: split and blend_per_split are incompatible
