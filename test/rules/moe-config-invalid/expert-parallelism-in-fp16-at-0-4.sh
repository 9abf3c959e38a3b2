#: name: moe-config-invalid: Megatron-LM 0.4 already refuses expert parallelism with --fp16 (megatron/arguments.py@core_v0.4.0:399-400)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --fp16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --disable-bias-linear \
    --num-experts 4 --expert-model-parallel-size 2
#                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: Expert parallelism is not supported with fp16 training
