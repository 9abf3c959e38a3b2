#: name: deprecated-key: a `cd` inside a subshell `( … )` does not move the launch: `pretrain_gpt.py` is the newest Megatron-LM's, which stops on a flag removed in 0.17
#: path: /project/examples/run.sh
#: settings: {"targetVersions": {"megatron-core": "0.17.0"}}
#!/bin/bash
# shardwise-disable memory-exceeds-hbm, missing-overlap-grad-reduce -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
(cd "$MEGATRON_PATH" && git log -1)
torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --no-async-tensor-model-parallel-allreduce
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[deprecated-key]: removed
