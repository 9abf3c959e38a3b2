#: name: deprecated-key: a script that puts a vendored Megatron-LM (a submodule not checked out) on PYTHONPATH runs a release nobody can see: no flag is called removed
#: path: /project/examples/llama/run_pretrain.sh
#: files: none
#!/bin/bash
# shardwise-disable memory-exceeds-hbm -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
HERE="$( cd "$( dirname "$0" )" && pwd )"
ROOT=$( dirname $( dirname ${HERE}))
export PYTHONPATH=${ROOT}:${ROOT}/third_party/Megatron-LM-250328:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ information[fork-flags-not-checked]: `/project/third_party/Megatron-LM-250328`, which is not read here
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 \
    --bf16 \
    --no-async-tensor-model-parallel-allreduce
