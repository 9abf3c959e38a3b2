#: name: overlap-config-invalid: --overlap-param-gather without --overlap-grad-reduce stops Megatron-LM 0.11 (training/arguments.py@core_v0.11.0)
#: settings: {"targetVersions": {"megatron-core": "0.11.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --use-distributed-optimizer --overlap-param-gather \
#                               ^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16
