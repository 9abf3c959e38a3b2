#: name: model-args-conflict: multi-token prediction with rotary position embeddings runs
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --mtp-num-layers 1 --position-embedding-type rope \
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
