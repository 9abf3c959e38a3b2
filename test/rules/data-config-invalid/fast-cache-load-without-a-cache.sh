#: name: data-config-invalid: the fast cache load without a cache directory and with a blend (core/datasets/blended_megatron_dataset_config.py@core_v0.16.0:101-109)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path /d/a --split 99,1,0 --dataloader-fast-cache-load --tokenizer-type NullTokenizer --vocab-size 100
#                                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[data-config-invalid]: --data-cache-path must be provided when using --dataloader-fast-cache-load.
#                                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[data-config-invalid]: --dataloader-fast-cache-load and --data-path cannot be used together.
