#: name: layers-not-divisible-by-pp: first and last stage sizes that hold every layer while PP 4 has two stages between them are refused from Megatron Core 0.16 ("Mismatch", transformer_config.py@core_v0.19.0:2033-2039)
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 4 \
    --decoder-last-pipeline-num-layers 4
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[layers-not-divisible-by-pp]: Mismatch: 0 middle layers remaining but 2 middle PP stages
