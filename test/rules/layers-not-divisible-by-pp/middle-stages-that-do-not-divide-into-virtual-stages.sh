#: name: layers-not-divisible-by-pp: with virtual stages each middle rank's layers must divide into them (transformer_config.py@core_v0.19.0:2049-2062): 8 layers, PP 4, first 2 and last 4 leave 1 layer for each middle stage
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --decoder-first-pipeline-num-layers 2 \
    --decoder-last-pipeline-num-layers 4
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[layers-not-divisible-by-pp]: number of layers on each middle pipeline rank
