#: name: moe-config-invalid: from 0.16 the flex dispatcher's HybridEP backend takes padding to capacity (transformer_config.py@core_v0.16.0:1074-1081)
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --num-experts 4 --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep --moe-expert-capacity-factor 1.0 --moe-pad-expert-input-to-capacity --expert-model-parallel-size 4
