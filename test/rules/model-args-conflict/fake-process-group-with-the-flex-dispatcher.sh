#: name: model-args-conflict: the fake process group with the flex dispatcher stops at startup (training/arguments.py@core_v0.16.0:1106-1107)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --num-experts 8 --expert-model-parallel-size 2 --moe-token-dispatcher-type flex --fake-process-group
#                                                                                   ^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: "Fake process group is not supported with flex token dispatcher."
