#: name: tp-without-sequence-parallel: from 0.17.0 `--skip-train --perform-rl-step` still enters the training loop (training/training.py@core_v0.17.0:1171-1173), so the run is not taken as an evaluation
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce tp-larger-than-needed -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 2 --num-experts 4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 1024 --max-position-embeddings 1024 --micro-batch-size 1 --global-batch-size 8 --bf16 --skip-train --perform-rl-step --load /ckpt --disable-bias-linear
#                                                                        ^ error[tp-without-sequence-parallel]: raises a ValueError on the first training step
