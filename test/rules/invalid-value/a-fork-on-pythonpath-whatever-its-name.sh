#: name: invalid-value: a script that puts a folder of the machine on PYTHONPATH (a Megatron fork, whatever the folder's name: /workspace/FlagScale) runs that fork's parser: its own tokenizer choice is not judged by Megatron-LM's
#: path: /project/benchmarks/aquila/run.sh
#: files: none
#!/bin/bash
# shardwise-disable memory-exceeds-hbm -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=$PYTHONPATH:/workspace/FlagScale
torchrun --nproc_per_node 8 pretrain_aquila.py \
^^^^^^^^ information[fork-flags-not-checked]: `/workspace/FlagScale`, which is not read here
    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \
    --micro-batch-size 1 --global-batch-size 8 --seq-length 2048 --max-position-embeddings 2048 \
    --bf16 \
    --tokenizer-type AquilaTokenizer
