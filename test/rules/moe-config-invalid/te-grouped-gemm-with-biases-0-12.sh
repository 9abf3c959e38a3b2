#: name: moe-config-invalid: Transformer Engine grouped experts refuse linear biases before 0.15 (experts.py@core_v0.12.1:675-677, @core_v0.14.0:761-763); at 0.13 and 0.14 the model config refuses them first
#: settings: {"targetVersions": {"megatron-core": "0.12.1"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --moe-grouped-gemm --swiglu
#                   ^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]
