#: name: tp-without-sequence-parallel: before 0.7.0 the MoE layer has no such check (moe_layer.py@core_v0.6.0) and without EP ModelParallelConfig does not refuse it (model_parallel_config.py@core_v0.6.0): advice only
#: settings: {"targetVersions": {"megatron-core": "0.6.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-experts 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16
#                                                                        ^ information[tp-without-sequence-parallel]: Turn sequence parallelism on
