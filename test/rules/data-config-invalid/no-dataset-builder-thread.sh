#: name: data-config-invalid: --num-dataset-builder-threads 0 stops Megatron-LM (training/arguments.py@d98e8a6:1258, from core_v0.7.0)
#: settings: {"targetVersions": {"megatron-core": "0.7.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --data-path /data/corpus_text_document --split 99,1,0 --num-dataset-builder-threads 0
#                                                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[data-config-invalid]
