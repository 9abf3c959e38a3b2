#: name: missing-cuda-device-max-connections: the Megatron a script runs (on PYTHONPATH, 0.9.0 by its package_info.py) has the variable's check commented out of its argument checks: it does not stop, and nothing is said
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
# shardwise-disable missing-overlap-grad-reduce, tp-without-sequence-parallel -- not what this case is about
export PYTHONPATH=/project/vendor/zb-megatron:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --tensor-model-parallel-size 2 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16
