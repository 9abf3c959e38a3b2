#: name: tp-without-sequence-parallel: from 0.7.0 the MoE layer raises a ValueError on the first training step when TP > 1 runs without sequence parallelism, EP or not (moe_layer.py@core_v0.7.0:93-99, @core_v0.15.0:265-267)
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-experts 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 --disable-bias-linear
#                                                                        ^ error[tp-without-sequence-parallel]: raises a ValueError on the first training step
