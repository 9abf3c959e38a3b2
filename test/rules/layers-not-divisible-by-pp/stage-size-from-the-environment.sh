#: name: layers-not-divisible-by-pp: a last stage size from the environment is unknown, so the middle stages are not judged
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 32 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 4 --decoder-last-pipeline-num-layers ${LAST_LAYERS}
