#: name: global-batch-not-divisible: with an eval batch that divides (--eval-global-batch-size, arguments.py@core_v0.18.0:705-712) --decrease-batch-size-if-needed lowers the global batch again at 0.18 (num_microbatches_calculator.py@core_v0.18.0)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 1 --bf16 --overlap-grad-reduce --use-distributed-optimizer --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 60 --decrease-batch-size-if-needed --eval-global-batch-size 64
#                                            ^^ information[global-batch-not-divisible]: Megatron lowers it to 56
