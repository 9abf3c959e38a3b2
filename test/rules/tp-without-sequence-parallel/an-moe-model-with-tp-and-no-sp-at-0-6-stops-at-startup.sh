#: name: tp-without-sequence-parallel: Megatron-LM 0.5.0 to 0.6.x refuse an MoE model with TP > 1 and no sequence parallelism at startup, with or without EP (megatron/arguments.py@core_v0.5.0, megatron/training/arguments.py@core_v0.6.0: "When using MoE and tensor parallelism, sequence parallelism must be used.")
#: settings: {"targetVersions": {"megatron-core": "0.6.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-experts 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16
#                                                                        ^ error[tp-without-sequence-parallel]: stops at startup
