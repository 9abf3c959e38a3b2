#: name: global-batch-not-divisible: from 0.19.0 the eval check divides by Megatron's replicas (world / (TP × PP × CP × weight shards / TP) = 4, arguments.py@core_v0.19.0:441-446, 688-695) but the micro-batch calculator by every data rank (replicas × 2 = 8, global_vars.py@core_v0.19.0:132): GBS 20 passes the first and stops on the second
#: settings: {"targetVersions": {"megatron-core": "0.19.0"}}
#!/bin/bash
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 --nnodes 4 pretrain_gpt.py \
    --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 4096 --max-position-embeddings 4096 \
    --tensor-model-parallel-size 4 --tensor-parallel-num-weight-shards 8 \
    --micro-batch-size 1 --global-batch-size 20 --bf16 --overlap-grad-reduce --use-distributed-optimizer --overlap-param-gather
#                                            ^^ error[global-batch-not-divisible]: ("global batch size is not divisible by micro batch size times data parallel size")
