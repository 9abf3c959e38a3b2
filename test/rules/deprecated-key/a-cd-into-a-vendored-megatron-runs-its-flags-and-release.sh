#: name: deprecated-key: a script that changes into a vendored Megatron-LM (`cd ../vendor/Megatron-LM`) before it starts `pretrain_gpt.py` runs that checkout: its parser still defines a flag removed upstream in 0.17
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
(cd /tmp && ls)
cd ../vendor/Megatron-LM
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --no-async-tensor-model-parallel-allreduce
