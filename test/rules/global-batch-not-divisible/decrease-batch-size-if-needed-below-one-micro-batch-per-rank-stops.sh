#: name: global-batch-not-divisible: a global batch below MBS × DP is rounded down to 0 micro-batches with --decrease-batch-size-if-needed, and Megatron stops (num_microbatches_calculator.py@core_v0.9.0:316-338 "number of microbatches should be at least 1")
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 --bf16 --overlap-grad-reduce --use-distributed-optimizer --overlap-param-gather \
    --micro-batch-size 2 --global-batch-size 12 --decrease-batch-size-if-needed
#                                            ^^ error[global-batch-not-divisible]: number of microbatches should be at least 1
