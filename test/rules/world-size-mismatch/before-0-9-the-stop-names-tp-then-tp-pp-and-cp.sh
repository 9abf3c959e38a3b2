#: name: world-size-mismatch: before 0.9.0 Megatron words the stop by the degrees, not total_model_size (megatron/training/arguments.py@core_v0.8.0:158-182): TP 8 × PP 2 on 12 GPUs stops on TP 8 itself
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 --nnodes 3 pretrain_gpt.py \
^^^^^^^^ error[world-size-mismatch]: "world size (12) is not divisible by tensor model parallel size (8)"
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 \
    --micro-batch-size 1 --global-batch-size 64 --bf16
