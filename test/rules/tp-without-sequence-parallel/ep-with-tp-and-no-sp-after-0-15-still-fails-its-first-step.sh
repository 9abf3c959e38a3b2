#: name: tp-without-sequence-parallel: at 0.20.0 ModelParallelConfig only warns for EP with TP and no SP (model_parallel_config.py@core_v0.15.0:388-393), but the MoE layer still raises on the first training step (moe_layer.py@core_v0.15.0:265-267, @d98e8a6:636-640): an error
#: settings: {"targetVersions": {"megatron-core": "0.20.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --expert-model-parallel-size 2 --num-experts 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 --disable-bias-linear
#                                                                        ^ error[tp-without-sequence-parallel]: with EP 2
