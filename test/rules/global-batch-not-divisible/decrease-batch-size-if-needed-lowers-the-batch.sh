#: name: global-batch-not-divisible: with --decrease-batch-size-if-needed Megatron lowers the batch to a multiple instead of stopping, up to 0.17 (no eval-batch check: arguments.py@core_v0.17.0; num_microbatches_calculator.py@core_v0.17.0)
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 --bf16 --overlap-grad-reduce --use-distributed-optimizer --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 60 --decrease-batch-size-if-needed
#                                            ^^ information[global-batch-not-divisible]: Megatron lowers it to 56
