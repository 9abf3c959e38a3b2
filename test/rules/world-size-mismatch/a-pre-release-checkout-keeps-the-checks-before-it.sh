#: name: world-size-mismatch: a pre-release checkout (0.10.0rc0) is behind 0.10.0 but past every 0.9 release: a check Megatron-LM has made since 0.9.0 is still an error
#: path: /project/examples/run.sh
#!/bin/bash
# shardwise: hardware=h100-sxm
# shardwise-disable tp-without-sequence-parallel -- not what this case is about
export CUDA_DEVICE_MAX_CONNECTIONS=1
export PYTHONPATH=/project/vendor/Megatron-LM:$PYTHONPATH
torchrun --nproc_per_node 8 pretrain_gpt.py \
^^^^^^^^ error[world-size-mismatch]: not divisible by TP 4 × PP 4
    --num-layers 16 --hidden-size 1024 --num-attention-heads 16 \
    --seq-length 1024 --max-position-embeddings 1024 \
    --micro-batch-size 1 --global-batch-size 32 --bf16 \
    --tensor-model-parallel-size 4 --pipeline-model-parallel-size 4
