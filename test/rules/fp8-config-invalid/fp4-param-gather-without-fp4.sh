#: name: fp8-config-invalid: --fp4-param-gather without --fp4-format stops Megatron-LM (training/arguments.py@core_v0.15.0:691-693, @d98e8a6:1104-1105)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 --use-distributed-optimizer \
    --fp4-param-gather \
#   ^^^^^^^^^^^^^^^^^^ error[fp8-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --overlap-param-gather
