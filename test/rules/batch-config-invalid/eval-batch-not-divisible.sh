#: name: batch-config-invalid: an eval batch of 12 with eval micro-batch 1 × DP 8 stops Megatron-LM (training/arguments.py@core_v0.18.0:705-712, @d98e8a6:715-720)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 --bf16 \
    --micro-batch-size 1 --global-batch-size 64 --overlap-grad-reduce --eval-global-batch-size 12
#                                                                     ^^^^^^^^^^^^^^^^^^^^^^^^ error[batch-config-invalid]
