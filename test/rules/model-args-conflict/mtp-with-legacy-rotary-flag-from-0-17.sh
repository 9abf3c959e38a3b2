#: name: model-args-conflict: from core_v0.17.0 the MTP check comes before --use-rotary-position-embeddings is applied (training/arguments.py@core_v0.17.0:729-734 before :1276): it stops
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --mtp-num-layers 1 --use-rotary-position-embeddings \
#   ^^^^^^^^^^^^^^^^ error[model-args-conflict]
#                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
