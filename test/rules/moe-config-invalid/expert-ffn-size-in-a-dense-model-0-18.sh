#: name: moe-config-invalid: from 0.18 an expert FFN size without experts stops (transformer_config.py@core_v0.18.0:1396-1411)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --moe-ffn-hidden-size 128
#   ^^^^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]: moe_ffn_hidden_size is set but num_moe_experts is None
