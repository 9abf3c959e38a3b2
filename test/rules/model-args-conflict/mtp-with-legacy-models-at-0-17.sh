#: name: model-args-conflict: multi-token prediction with the legacy model stops Megatron-LM up to core_v0.17.0 (training/arguments.py@core_v0.12.0:962)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --mtp-num-layers 1 --position-embedding-type rope --use-legacy-models \
#                                                     ^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16 --ckpt-format torch
