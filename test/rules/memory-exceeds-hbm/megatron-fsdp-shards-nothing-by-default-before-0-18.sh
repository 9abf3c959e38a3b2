#: name: memory-exceeds-hbm: Megatron-FSDP shards nothing by default up to 0.17 (data_parallel_sharding_strategy no_shard, training/arguments.py@core_v0.17.0:2709; optim_grads_params from 0.18.0:2798), so at 0.17 a 70B model at TP 8 keeps whole weights, gradients and optimizer state per DP rank; the default is the assumption named
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
# shardwise: hardware=h100-sxm
export CUDA_DEVICE_MAX_CONNECTIONS=8
# shardwise-disable missing-tp-comm-overlap -- not what this case is about
torchrun --nnodes 8 --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 80 --hidden-size 8192 --ffn-hidden-size 28672 --num-attention-heads 64 --group-query-attention --num-query-groups 8 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 8 --sequence-parallel --use-distributed-optimizer --bf16 \
#                                ^ warning[memory-exceeds-hbm]: Estimated 103 GiB per GPU
    --use-megatron-fsdp --ckpt-format fsdp_dtensor --no-gradient-accumulation-fusion --overlap-grad-reduce --overlap-param-gather \
    --micro-batch-size 1 --global-batch-size 64 --train-iters 100 --eval-interval 1000
