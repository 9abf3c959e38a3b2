#: name: moe-config-invalid: from Megatron Core 0.12.1 the model config refuses an MoE model with the linear biases on, the default (transformer_config.py@core_v0.12.1:945-946; none @core_v0.12.0); Transformer Engine's grouped experts would refuse them later (experts.py@core_v0.12.1:675-677), not reached
#: settings: {"targetVersions": {"megatron-core": "0.12.1"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --moe-grouped-gemm --swiglu
#   ^^^^^^^^^^^^^ error[moe-config-invalid]: Megatron Core 0.12.1 to 0.14 build experts without biases
