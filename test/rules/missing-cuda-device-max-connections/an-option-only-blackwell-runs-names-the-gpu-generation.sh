#: name: missing-cuda-device-max-connections: `--fp4-format` runs only on Blackwell GPUs, so the hardware is a Blackwell one (assumed, naming the option) and the check that holds before Blackwell does not apply
#: path: /project/train.sh
#: settings: {"targetVersions": {"megatron-core": "0.15.0"}}
#!/bin/bash
# shardwise-disable tp-larger-than-needed, missing-overlap-grad-reduce, missing-tp-comm-overlap -- not what this case is about
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --tensor-model-parallel-size 2 --sequence-parallel \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 --fp4-format e2m1
