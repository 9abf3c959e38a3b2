#: name: model-args-conflict: up to core_v0.16.0 --use-rotary-position-embeddings sets rotary embeddings before the MTP check (training/arguments.py@core_v0.16.0:990 before :1232): it runs
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --mtp-num-layers 1 --use-rotary-position-embeddings \
#                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
