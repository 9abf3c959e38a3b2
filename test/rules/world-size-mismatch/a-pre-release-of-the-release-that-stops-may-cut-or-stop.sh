#: name: world-size-mismatch: a checkout at 0.9.0rc0 is on its way to the release that stopped cutting TP and PP down to the world (megatron/training/arguments.py@core_r0.8.0 cuts, @core_r0.9.0 asserts): it may do either, so the warning says both
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=/project/vendor/Megatron-LM:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ warning[world-size-mismatch]: releases before it cut PP to 1 without a word and run TP 8 × PP 1
    --num-layers 16 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 4
