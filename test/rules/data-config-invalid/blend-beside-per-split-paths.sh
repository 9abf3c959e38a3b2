#: name: data-config-invalid: a blend beside per-split paths is two data sources (training/arguments.py@core_v0.19.0:1623-1627)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path 0.7 /data/a_text_document 0.3 /data/b_text_document --train-data-path /data/train_text_document --valid-data-path /data/valid_text_document
#   ^^^^^^^^^^^ error[data-config-invalid]: A single data source must be provided
