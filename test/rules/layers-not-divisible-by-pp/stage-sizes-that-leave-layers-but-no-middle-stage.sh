#: name: layers-not-divisible-by-pp: from Megatron Core 0.16 first and last stage sizes that leave layers but no middle stage are refused ("Mismatch", transformer_config.py@core_v0.16.0, @core_v0.19.0:2033-2039): 8 layers, PP 2, first 3 and last 3
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 2 --decoder-first-pipeline-num-layers 3 \
    --decoder-last-pipeline-num-layers 3
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[layers-not-divisible-by-pp]: Mismatch: 2 middle layers remaining but 0 middle PP stages
