#: name: model-args-conflict: multi-token prediction with the default learned absolute position embeddings stops Megatron-LM (training/arguments.py@d98e8a6:882-886, from core_v0.12.0)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --mtp-num-layers 1 \
#   ^^^^^^^^^^^^^^^^ error[model-args-conflict]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
