#: name: data-config-invalid: a dataset in S3 without the cache path (core/datasets/gpt_dataset.py@core_v0.13.0:144-145, @d98e8a6:214-215)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --eval-interval 1000 \
    --data-path 0.5 s3://bucket/a_text_document 0.5 /d/b_text_document --split 99,1,0 --tokenizer-type NullTokenizer --vocab-size 100
#   ^^^^^^^^^^^ error[data-config-invalid]: `--data-path` names a dataset in object storage (`s3://` or `msc://`) 
