#: name: moe-config-invalid: grouped GEMM on the local layers is the legacy GroupedMLP, which refuses biases (experts.py@core_v0.10.0 GroupedMLP.__init__)
#: settings: {"targetVersions": {"megatron-core": "0.10.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --moe-grouped-gemm --transformer-impl local --swiglu
#                   ^^^^^^^^^^^^^^^^^^ error[moe-config-invalid]
