#: name: missing-overlap-grad-reduce: a vendored Megatron-LM of mid-2023 (its parser defines no --overlap-grad-reduce, which came in September 2023) refuses the flag as an unrecognized argument, so it is not advised; the same for --overlap-param-gather and --tp-comm-overlap
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise-disable tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=/project/vendor/Megatron-LM:$PYTHONPATH
torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \
    --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \
    --seq-length 2048 --max-position-embeddings 2048 \
    --tensor-model-parallel-size 2 --sequence-parallel --use-distributed-optimizer --bf16 \
    --micro-batch-size 1 --global-batch-size 64
