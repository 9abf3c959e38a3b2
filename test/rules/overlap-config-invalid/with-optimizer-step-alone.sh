#: name: overlap-config-invalid: --overlap-param-gather-with-optimizer-step alone misses the distributed optimizer, the parameter-gather overlap, virtual stages and a torch checkpoint format (training/arguments.py@d98e8a6:1066-1074, from core_v0.9.0)
#: settings: {"targetVersions": {"megatron-core": "0.9.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[missing-overlap-grad-reduce]
    --num-layers 32 --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --overlap-param-gather-with-optimizer-step \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[overlap-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --bf16
