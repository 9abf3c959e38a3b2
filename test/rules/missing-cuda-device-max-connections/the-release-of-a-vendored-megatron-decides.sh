#: name: missing-cuda-device-max-connections: the release of the Megatron-LM on PYTHONPATH (0.12, from its package_info.py) decides: TP > 1 needs the variable even on Blackwell
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise: hardware=b200
# shardwise-disable missing-overlap-grad-reduce, tp-larger-than-needed, tp-without-sequence-parallel -- not what this case is about
export PYTHONPATH=/project/vendor/Megatron-LM:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --tensor-model-parallel-size 2 \
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[missing-cuda-device-max-connections]: Megatron-LM 0.12.0 stops at startup
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16
