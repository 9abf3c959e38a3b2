#: name: moe-config-invalid: delayed weight gradients need Transformer Engine's layers from 0.14 (training/arguments.py@core_v0.14.0:1080-1082, @d98e8a6:1903-1905)
#: settings: {"targetVersions": {"megatron-core": "0.14.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --lr 1e-4 --train-iters 1000 --disable-bias-linear \
    --num-experts 8 --expert-model-parallel-size 2 --moe-token-dispatcher-type alltoall --overlap-moe-expert-parallel-comm --pipeline-model-parallel-size 2 --num-layers-per-virtual-pipeline-stage 1 --delay-wgrad-compute --transformer-impl local
#                                                                                                                                                                                                     ^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Delaying wgrad compute is only supported with tran
