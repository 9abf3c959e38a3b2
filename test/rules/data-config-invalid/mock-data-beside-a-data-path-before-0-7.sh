#: name: data-config-invalid: before 0.7 the argument checks do not count the data sources (megatron/arguments.py@core_v0.6.0 has no such assertion)
#: settings: {"targetVersions": {"megatron-core": "0.6.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 \
    --mock-data --data-path /data/corpus_text_document
