#: name: model-args-conflict: from 0.8.0 validate_args asserts that the sequence length is a multiple of 2 × CP when CP > 1 (megatron/training/arguments.py@core_v0.8.0:393-396, @core_v0.19.0:1295-1298, @d98e8a6:1335-1338)
#: settings: {"targetVersions": {"megatron-core": "0.8.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 130 --max-position-embeddings 130 --bf16 \
#                                                           ^^^^^^^^^^^^ error[model-args-conflict]: seq-length should be a multiple of 2 * context-parallel-size
    --context-parallel-size 2 --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4
