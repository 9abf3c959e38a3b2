#: name: layers-not-divisible-by-pp: 32 layers, PP 4 and a last stage of 5 leave 27 layers, 9 for each of 3 middle stages: accepted (transformer_config.py@core_v0.18.0)
#: settings: {"targetVersions": {"megatron-core": "0.18.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 32 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 4 --decoder-last-pipeline-num-layers 5
