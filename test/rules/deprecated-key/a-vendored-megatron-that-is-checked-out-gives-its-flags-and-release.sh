#: name: deprecated-key: a vendored Megatron-LM on PYTHONPATH that is checked out is read: its parser still defines a flag removed upstream in 0.17, and its package_info.py says it is 0.12
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=/project/vendor/Megatron-LM:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --no-async-tensor-model-parallel-allreduce
