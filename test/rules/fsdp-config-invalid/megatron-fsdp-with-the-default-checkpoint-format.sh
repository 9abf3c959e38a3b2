#: name: fsdp-config-invalid: Megatron-FSDP with the default torch_dist checkpoint format stops Megatron-LM from core_v0.18.0 (training/arguments.py@core_v0.18.0:1142-1143, @d98e8a6:1169-1170)
#: path: train.sh
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=8
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --use-megatron-fsdp \
#   ^^^^^^^^^^^^^^^^^^^ error[fsdp-config-invalid]
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce
