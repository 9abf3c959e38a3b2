#: name: version-unsupported-key: a megatron-core pin suggests, but does not say, which Megatron-LM parses a launch script's flags (the package holds megatron.core only): a newer flag is a warning that names the assumption
#: path: /project/scripts/train.sh
#!/bin/bash
# shardwise-disable missing-overlap-grad-reduce,missing-cuda-device-max-connections -- not what this case is about
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 2 --hidden-size 256 --num-attention-heads 4 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 8 \
    --expert-tensor-parallel-size 1 \
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[version-unsupported-key]: This assumes the Megatron-LM that reads this file is the release the repository pins
    --bf16
