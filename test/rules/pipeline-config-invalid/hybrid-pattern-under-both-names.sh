#: name: pipeline-config-invalid: --hybrid-override-pattern beside --hybrid-layer-pattern stops Megatron-LM (training/arguments.py@d98e8a6:745-749, from core_v0.17.0)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_mamba.py \
    --hidden-size 1024 --num-attention-heads 16 --seq-length 512 --max-position-embeddings 512 \
    --hybrid-layer-pattern M-M- --hybrid-override-pattern M-M- \
#                               ^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
#                               ^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
    --overlap-grad-reduce --micro-batch-size 1 --global-batch-size 8 --bf16
