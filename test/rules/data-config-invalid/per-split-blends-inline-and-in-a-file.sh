#: name: data-config-invalid: --train-data-path beside --per-split-data-args-path stops Megatron-LM (training/arguments.py@core_v0.10.0:309-318, @d98e8a6:678-687)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --train-data-path /data/train_text_document --per-split-data-args-path /data/splits.json
#                                               ^^^^^^^^^^^^^^^^^^^^^^^^^^ error[data-config-invalid]
