#: name: rl-config-invalid: after 0.19 the offload still needs a separate inference model (training/training.py@d98e8a6:1923-1929)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --perform-rl-step --rl-offload-inference-model-weights-when-idle
#                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]: requires a separate inference model
