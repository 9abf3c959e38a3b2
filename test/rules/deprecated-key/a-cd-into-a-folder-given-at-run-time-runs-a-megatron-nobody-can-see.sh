#: name: deprecated-key: a script that changes into a folder it is given when it runs (`cd "$MEGATRON_PATH"`) before it starts `pretrain_gpt.py` runs a Megatron-LM nobody can see: no flag is called removed
#: path: /project/examples/run.sh
#: files: none
#!/bin/bash
# shardwise-disable memory-exceeds-hbm -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
cd "$MEGATRON_PATH"
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: MEGATRON_PATH
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --no-async-tensor-model-parallel-allreduce
