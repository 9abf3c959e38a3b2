#: name: data-config-invalid: Megatron Core 0.7 asks for exactly one data source, so two stop it too (training/arguments.py@core_v0.7.0:515-518)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --mock-data --data-path /data/corpus_text_document
#   ^^^^^^^^^^^ error[data-config-invalid]: A single data source must be provided
