#: name: layers-not-divisible-by-pp: a last stage size the virtual stages do not divide is reported once, by pipeline-config-invalid, from Megatron Core 0.11 (transformer_config.py@core_v0.11.0:620-635, @core_v0.19.0:2014-2030)
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --max-position-embeddings 128 --bf16 \
    --micro-batch-size 1 --global-batch-size 8 --overlap-grad-reduce --train-iters 10 --lr 1e-4 --eval-interval 1000 \
    --pipeline-model-parallel-size 2 --num-virtual-stages-per-pipeline-rank 2 \
    --decoder-last-pipeline-num-layers 3
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[pipeline-config-invalid]
