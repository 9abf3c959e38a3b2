#: name: model-args-conflict: Megatron-LM 0.4 refuses the distributed optimizer with expert parallelism (megatron/arguments.py@core_v0.4.0:393-398)
#: settings: {"targetVersions": {"megatron-core": "0.4.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce \
    --num-experts 8 --expert-model-parallel-size 2 --use-distributed-optimizer --overlap-param-gather
#                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[model-args-conflict]: "Expert parallelism is not suppored with distributed optimizer."
