#: name: data-config-invalid: the deferred index mmap without a cache directory (core/datasets/blended_megatron_dataset_config.py@core_v0.16.0:110-113)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --train-data-path /d/a --dataloader-defer-npy-index-mmap --tokenizer-type NullTokenizer --vocab-size 100
#                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[data-config-invalid]: --data-cache-path must be provided when using --dataloader-defer-npy-index-mmap.
