#: name: layers-not-divisible-by-pp: first and last stage sizes and middle stages that each divide into the virtual stages pass (transformer_config.py@core_v0.19.0:1995-2062): 8 layers, PP 4, VPP 2, first 2 and last 2
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --decoder-first-pipeline-num-layers 2 \
    --decoder-last-pipeline-num-layers 2
