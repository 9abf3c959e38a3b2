#: name: recompute-config-invalid: a granularity the script takes from the environment is unknown, so --moe-layer-recompute is not judged against it
#: settings: {"targetVersions": {"megatron-core": "0.12.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 \
    --num-experts 4 --recompute-granularity ${RECOMPUTE_GRANULARITY} --moe-layer-recompute
#                                                                    ^^^^^^^^^^^^^^^^^^^^^ information[deprecated-key]: turns it into selective recomputation
