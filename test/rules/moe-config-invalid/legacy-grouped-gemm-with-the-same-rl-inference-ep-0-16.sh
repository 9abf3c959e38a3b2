#: name: moe-config-invalid: the legacy GroupedMLP with the training EP for inference runs
#: settings: {"targetVersions": {"megatron-core": "0.16.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 8 --moe-grouped-gemm --disable-bias-linear --moe-use-legacy-grouped-gemm --expert-model-parallel-size 8 --perform-rl-step --rl-inference-expert-model-parallel-size 8
#                                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]
