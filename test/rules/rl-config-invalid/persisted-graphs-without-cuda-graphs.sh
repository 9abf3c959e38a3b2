#: name: rl-config-invalid: --rl-persist-cuda-graphs and --rl-training-cuda-graphs without CUDA graphs stop Megatron-LM (training/arguments.py@core_v0.17.0:360-367, @d98e8a6:481-487)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 /opt/megatron-lm/train_rl.py \
    --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --overlap-grad-reduce \
    --seq-length 512 --max-position-embeddings 512 --bf16 \
    --perform-rl-step --micro-batch-size 1 --global-batch-size 64 --rl-persist-cuda-graphs --rl-training-cuda-graphs
#                                                                 ^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
#                                                                                          ^^^^^^^^^^^^^^^^^^^^^^^^^ error[rl-config-invalid]
