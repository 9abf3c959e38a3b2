#: name: missing-cuda-device-max-connections: the same script in FP8, which Hopper runs: the default hardware is an assumption, so the stop it predicts before Blackwell is a warning that names it
#: path: /project/train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce, missing-tp-comm-overlap -- not what this case is about
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 2 --sequence-parallel \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[missing-cuda-device-max-connections]: This assumes `h100-sxm` hardware
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 --fp8-format hybrid
